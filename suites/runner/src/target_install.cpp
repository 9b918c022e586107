// A target's program looked up on PATH, and its version command run as a child process of
// fixtures' process layer (its own container, a deadline, output to files, stopped by PID).
#include "loiter/suites/runner/target_install.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/os/process.hpp"
#include "loiter/fixtures/os/temp_directory.hpp"
#include "loiter/suites/runner/files.hpp"

namespace loiter::suites {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kVersionDeadline = 5s;

fixtures::RenderContext no_run(const fixtures::Target& target) {
  return {.port = 0, .dir = "{dir}", .host = target.host};
}

// The first line of the file with text on it, without its line end and trailing blanks.
std::string first_line(const fs::path& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const std::exception&) {
    return {};  // no output
  }
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    auto line = rest.substr(0, end);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty()) return std::string(line);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  return {};
}

}  // namespace

std::optional<std::string> missing_program(const fixtures::Target& target) {
  const auto program = fixtures::render_command(target.command, no_run(target)).front();
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), X_OK) == 0) return std::nullopt;
    return program;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const auto dir = dirs.substr(0, colon);
    if (::access((fs::path(dir) / program).c_str(), X_OK) == 0) return std::nullopt;
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
  }
  return program;
}

std::string target_version(const fixtures::Target& target) {
  if (target.version_command.empty()) return target.description;
  try {
    const fixtures::TempDirectory scratch("loiter-version-");
    const auto out = scratch.path() / "stdout", err = scratch.path() / "stderr";
    {
      fixtures::Process version(fixtures::render_command(target.version_command, no_run(target)),
                                {.stdout_path = out, .stderr_path = err});
      version.wait_for_exit(kVersionDeadline);
      version.stop(500ms);  // one that ran past its deadline too, with whatever it started
    }
    auto line = first_line(out);
    if (line.empty()) line = first_line(err);
    return line.empty() ? "(no version printed)" : line;
  } catch (const fixtures::HarnessError&) {  // it could not be started
    return "(version command failed)";
  }
}

}  // namespace loiter::suites
