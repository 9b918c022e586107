// Errors to exit codes, once for every command, and the last resort for an error that
// escaped where no command catches it.
#include "error_exit.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "exit_codes.hpp"
#include "loiter/fixtures/target/target_file.hpp"

namespace loiter::cli {

namespace {

struct Said {
  std::string what;
  int code;
};

Said said(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::invalid_argument& e) {  // a Refusal too
    return {e.what(), kUsage};
  } catch (const fixtures::TargetFileError& e) {
    return {e.what(), kUsage};
  } catch (const std::exception& e) {  // fixtures::HarnessError, a file, a limit
    return {e.what(), kInfrastructure};
  } catch (...) {
    return {"an error that is not a std::exception", kInfrastructure};
  }
}

// One write(2), no stream: the terminate handler may run while another thread holds
// std::cerr.
void say(const std::string& line) {
  const auto n = ::write(STDERR_FILENO, line.data(), line.size());
  static_cast<void>(n);
}

[[noreturn]] void on_terminate() {
  const auto error = std::current_exception();
  if (!error) {
    say("loiter: internal error: std::terminate without an exception\n");
    std::_Exit(kInfrastructure);
  }
  const auto [what, code] = said(error);
  say("loiter: " + what + " (escaped where nothing caught it)\n");
  std::_Exit(code);
}

}  // namespace

int exit_code_of_error(const std::exception_ptr& error) {
  const auto [what, code] = said(error);
  std::cerr << "loiter: " << what << "\n";  // std::cout's lines first (std::cerr is tied to it)
  return code;
}

void exit_on_terminate() { std::set_terminate(on_terminate); }

}  // namespace loiter::cli
