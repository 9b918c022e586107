// Running the loiter binary from tests: bounded waits, output in files, nothing left behind.
#include "cli_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "loiter/fixtures/os/process.hpp"
#include "loiter/testing/wait.hpp"

extern char** environ;

namespace loiter::suites::testing {

namespace fs = std::filesystem;

Child::Child(const std::vector<std::string>& argv, const fs::path& output) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int error = ::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0]);
}

Child::~Child() {
  if (reaped_) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

void Child::signal(int number) const { ::kill(pid_, number); }

std::optional<int> Child::wait(double timeout_s) {
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(timeout_s));
  int status = 0;
  if (!fixtures::wait_for_exit(pid_, timeout) || ::waitpid(pid_, &status, 0) != pid_)
    return std::nullopt;
  reaped_ = true;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

int run(const std::vector<std::string>& argv, const fs::path& output, double timeout_s) {
  Child child(argv, output);
  const auto status = child.wait(timeout_s);
  if (!status) throw std::runtime_error(argv[0] + " did not finish in time");
  return *status;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool output_shows(const fs::path& path, std::string_view text, std::chrono::milliseconds timeout) {
  return loiter::testing::wait_for(  // polling a file
      [&] { return read_text(path).find(text) != std::string::npos; }, text, timeout,
      std::chrono::milliseconds(20));
}

fs::path only_run_directory(const fs::path& root) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) found.push_back(entry.path());
  }
  if (found.size() != 1) {
    throw std::runtime_error("expected one run directory under " + root.string() + ", found " +
                             std::to_string(found.size()));
  }
  return found.front();
}

int loiter(const TempDir& tmp, std::vector<std::string> args) {
  std::vector<std::string> argv{LOITER_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--runs", (tmp.path() / "runs").string()});
  return run(argv, tmp.path() / "out", 60);
}

}  // namespace loiter::suites::testing
