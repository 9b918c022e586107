// Inputs refused before anything starts (exit 2): the error that says so, and what only the
// file system or the process table can tell, checked before a server is spawned or a client
// connects.
#pragma once

#include <sys/types.h>

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace loiter::cli {

// A bad input, refused before anything started: main says it and exits 2.
class Refusal : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Runs `check`, a command's checks of its inputs (and what they make, such as the run
// directory): whatever it throws is a Refusal with the same words.
template <class Check>
decltype(auto) refusing(Check&& check) {
  try {
    return check();
  } catch (const Refusal&) {
    throw;
  } catch (const std::exception& e) {
    throw Refusal(e.what());
  }
}

// Why `OPTION PATH` (--json, --junit) cannot be written at the end of the run, or nullopt
// when it can: a directory, a missing or unwritable directory, an unwritable file, or a
// path inside another run's directory (whose report.json is that run's document). Probing
// leaves an existing file unchanged and creates none.
std::optional<std::string> output_path_problem(std::string_view option, const std::string& path);

// Why `--pid PID` names no process to sample, or nullopt when it does.
std::optional<std::string> pid_problem(pid_t pid);

}  // namespace loiter::cli
