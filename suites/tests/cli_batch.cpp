// Runs of the loiter binary, a few at a time on worker threads, each waited for on its pidfd
// (fixtures::wait_for_exit) with a deadline, never a fixed sleep.
#include "cli_batch.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "cli_run.hpp"
#include "loiter/fixtures/os/process.hpp"

extern char** environ;

namespace loiter::suites::testing {

namespace fs = std::filesystem;

namespace {

pid_t spawn_in(const std::vector<std::string>& argv, const fs::path& dir) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, (dir / "out").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (dir / "err").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int error = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0]);
  return pid;
}

void run_one(BatchRun& run, const fs::path& dir, std::chrono::milliseconds timeout) {
  fs::create_directories(dir);
  const pid_t pid = spawn_in(run.argv, dir);
  if (!fixtures::wait_for_exit(pid, timeout)) {
    run.timed_out = true;
    ::kill(pid, SIGINT);
    if (!fixtures::wait_for_exit(pid, timeout)) ::kill(pid, SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  run.out = read_text(dir / "out");
  run.err = read_text(dir / "err");
}

}  // namespace

std::vector<BatchRun> run_batch(const std::vector<std::vector<std::string>>& argvs,
                                const fs::path& root, double timeout_s, std::size_t at_once) {
  std::vector<BatchRun> runs(argvs.size());
  for (std::size_t i = 0; i < argvs.size(); ++i) runs[i].argv = argvs[i];
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(timeout_s));
  std::atomic<std::size_t> next{0};
  std::vector<std::string> errors(at_once);
  {
    std::vector<std::jthread> workers;
    for (std::size_t w = 0; w < at_once; ++w) {
      workers.emplace_back([&, w] {
        try {
          for (std::size_t i; (i = next++) < runs.size();) {
            run_one(runs[i], root / std::to_string(i), timeout);
          }
        } catch (const std::exception& e) {
          errors[w] = e.what();
          next = runs.size();  // the others stop too
        }
      });
    }
  }  // joined
  for (const auto& error : errors) {
    if (!error.empty()) throw std::runtime_error(error);
  }
  return runs;
}

}  // namespace loiter::suites::testing
