// Runs of loiter's command line, a few at a time, each waited for on its pidfd with a
// deadline, never a fixed sleep. One thread starts, watches and reaps them all, so a forked
// run (Launch::fork) copies a process in which no other thread holds a lock.
#include "cli_batch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "cli_run.hpp"
#include "command_line.hpp"
#include "error_exit.hpp"
#include "loiter/fixtures/os/fd.hpp"

extern char** environ;

namespace loiter::suites::testing {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

pid_t spawn_in(const std::vector<std::string>& argv, const fs::path& dir) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, (dir / "out").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (dir / "err").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  auto args = c_argv(argv);
  pid_t pid = -1;
  const int error = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0]);
  return pid;
}

// In the child: its standard streams on /dev/null and the run's files, in the run's
// directory; then the command line, and _Exit with its code once its output is flushed.
[[noreturn]] void run_command_line_here(const std::vector<std::string>& argv, const fs::path& dir) {
  const int in = ::open("/dev/null", O_RDONLY);
  const int out = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err = ::open((dir / "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || err < 0 || ::dup2(in, STDIN_FILENO) < 0 ||
      ::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0 ||
      ::chdir(dir.c_str()) != 0) {
    std::_Exit(127);
  }
  for (const int fd : {in, out, err}) ::close(fd);
  cli::exit_on_terminate();
  auto args = c_argv(argv);
  const int code = cli::run_command_line(static_cast<int>(argv.size()), args.data());
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

pid_t fork_in(const std::vector<std::string>& argv, const fs::path& dir) {
  // What this process has buffered is written now, not again by each child at its exit.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot fork for " + argv[0]);
  if (pid == 0) run_command_line_here(argv, dir);
  return pid;
}

struct Live {
  std::size_t index;
  pid_t pid;
  fixtures::Fd exited;  // pidfd: readable once the run has exited
  Clock::time_point deadline;
  int signals_sent = 0;  // SIGINT at the timeout, SIGKILL as long after
};

int status_of(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

}  // namespace

std::vector<BatchRun> run_batch(const std::vector<std::vector<std::string>>& argvs,
                                const fs::path& root, double timeout_s, std::size_t at_once,
                                Launch launch) {
  std::vector<BatchRun> runs(argvs.size());
  for (std::size_t i = 0; i < argvs.size(); ++i) runs[i].argv = argvs[i];
  const auto timeout =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  std::vector<Live> live;
  std::size_t next = 0;
  const auto finish = [&](Live& run) {
    auto& r = runs[run.index];
    r.status = status_of(run.pid);
    const auto dir = root / std::to_string(run.index);
    r.out = read_text(dir / "out");
    r.err = read_text(dir / "err");
  };
  try {
    while (next < runs.size() || !live.empty()) {
      while (live.size() < std::max<std::size_t>(at_once, 1) && next < runs.size()) {
        const auto dir = root / std::to_string(next);
        fs::create_directories(dir);
        const pid_t pid = launch == Launch::fork ? fork_in(runs[next].argv, dir)
                                                 : spawn_in(runs[next].argv, dir);
        live.push_back({next, pid, fixtures::pidfd_open(pid), Clock::now() + timeout});
        ++next;
      }
      std::vector<pollfd> watched;
      auto until = live.front().deadline;
      for (const auto& run : live) {
        watched.push_back({.fd = run.exited.get(), .events = POLLIN, .revents = 0});
        until = std::min(until, run.deadline);
      }
      // A killed run's deadline is the end of time: its exit is at hand, and only its pidfd
      // is waited for (at most a timeout between looks).
      const auto wait = std::clamp<Clock::duration>(until - Clock::now(), Clock::duration{0},
                                                    timeout);
      const int wait_ms =
          static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(wait).count());
      if (::poll(watched.data(), watched.size(), wait_ms) < 0 && errno != EINTR) {
        throw std::runtime_error("cannot watch the runs (poll)");
      }
      const auto now = Clock::now();
      for (std::size_t k = live.size(); k-- > 0;) {
        auto& run = live[k];
        if ((watched[k].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
          finish(run);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        } else if (now >= run.deadline && run.signals_sent < 2) {
          runs[run.index].timed_out = true;
          ::kill(run.pid, run.signals_sent == 0 ? SIGINT : SIGKILL);
          ++run.signals_sent;
          run.deadline = run.signals_sent < 2 ? now + timeout : Clock::time_point::max();
        }
      }
    }
  } catch (...) {
    for (auto& run : live) {  // none left behind: killed and reaped
      ::kill(run.pid, SIGKILL);
      status_of(run.pid);
    }
    throw;
  }
  return runs;
}

}  // namespace loiter::suites::testing
