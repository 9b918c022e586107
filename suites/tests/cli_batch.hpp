// Many short runs of the loiter binary, a few at a time: each in a directory of its own (its
// working directory, with its stdout and stderr in files), each bounded in time.
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

// Runs each argv (argv[0] a path) in `root`/<its index>/, at most `at_once` at a time.
// One still running after `timeout_s` gets SIGINT (loiter's clean stop), then SIGKILL after
// as long again; every run is reaped before this returns.
std::vector<BatchRun> run_batch(const std::vector<std::vector<std::string>>& argvs,
                                const std::filesystem::path& root, double timeout_s,
                                std::size_t at_once);

}  // namespace loiter::suites::testing
