// Running the loiter binary from a test: to completion, or as a child the test signals.
// Output goes to files in the test's own temporary directory.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/fixtures/os/temp_directory.hpp"

namespace loiter::suites::testing {

// The reference server's deadlines at 1 s: what the command-line tests run it with.
inline const std::vector<std::string> kShortDeadlines{"--header-timeout", "1", "--body-timeout",
                                                      "1", "--idle-timeout", "1"};

// A fresh temporary directory, removed with the object.
class TempDir : public fixtures::TempDirectory {
 public:
  TempDir() : fixtures::TempDirectory("loiter-cli-test-") {}
};

// A started program; killed (SIGKILL) and reaped on destruction if still running.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::filesystem::path& output);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  pid_t pid() const { return pid_; }
  void signal(int number) const;
  // The exit status, -(signal) if killed by one, or nullopt if still running after `timeout_s`.
  std::optional<int> wait(double timeout_s);

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

// Runs argv to completion (bounded: killed after `timeout_s`); stdout and stderr go to
// `output`. Returns the exit status (or -signal).
int run(const std::vector<std::string>& argv, const std::filesystem::path& output,
        double timeout_s = 120);

std::string read_text(const std::filesystem::path& path);

// Waits until the file a child writes contains `text`, at most `timeout`; false if not.
bool output_shows(const std::filesystem::path& path, std::string_view text,
                  std::chrono::milliseconds timeout);

// The one run directory under `root`; throws unless there is exactly one.
std::filesystem::path only_run_directory(const std::filesystem::path& root);

// `loiter ARGS... --runs TMP/runs`, bounded at 60 s; the exit status, its output in TMP/out.
int loiter(const TempDir& tmp, std::vector<std::string> args);

}  // namespace loiter::suites::testing
