// Many short runs of loiter's command line, a few at a time: each in a directory of its own
// (its working directory, with its stdout and stderr in files), each bounded in time.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace loiter::suites::testing {

struct BatchRun {
  std::vector<std::string> argv;
  int status = 0;          // the exit status, or -(signal) if a signal ended it
  bool timed_out = false;  // still running after the timeout: interrupted, then killed
  std::string out, err;
};

// How a run starts.
enum class Launch {
  // The executable argv[0] (posix_spawn): its whole start, dynamic linking and all.
  exec,
  // A fork of this process that runs loiter's command line (cli::run_command_line) on argv
  // and _Exits with its code, as main() does: the same parsing, checks and commands as the
  // executable without its start (about 20 ms each, most of a refused run's time). Forked
  // from this one thread while no other runs: a child inherits no lock held elsewhere.
  fork,
};

// Runs each argv in `root`/<its index>/, at most `at_once` at a time, from this thread.
// One still running after `timeout_s` gets SIGINT (loiter's clean stop), then SIGKILL after
// as long again; every run is reaped before this returns.
std::vector<BatchRun> run_batch(const std::vector<std::vector<std::string>>& argvs,
                                const std::filesystem::path& root, double timeout_s,
                                std::size_t at_once, Launch launch = Launch::exec);

}  // namespace loiter::suites::testing
