#include "client_processes.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/os/process.hpp"

namespace loiter::suites {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using namespace std::chrono_literals;

// How long a thread already joined may still be listed in /proc/self/task.
constexpr auto kJoinedThreadGone = 100ms;

std::size_t threads_listed() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    ++count;
  }
  return count;
}

// This process's threads. One just joined can stay listed a moment (the kernel wakes the
// joiner before it removes the task), so a count above one is read again, for at most
// kJoinedThreadGone, before it stands.
std::size_t threads_of_this_process() {
  const auto give_up = Clock::now() + kJoinedThreadGone;
  std::size_t threads = threads_listed();
  while (threads > 1 && Clock::now() < give_up) {
    std::this_thread::sleep_for(1ms);  // polling the kernel's view
    threads = threads_listed();
  }
  return threads;
}

// In the forked child, before its body runs.
void become_client(pid_t parent) {
  ::signal(SIGINT, SIG_IGN);   // Ctrl-C reaches the whole process group: the parent decides
  ::signal(SIGTERM, SIG_DFL);  // the parent's stop(); its own handler only sets a flag
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // the parent died before the line above
}

std::string how_it_ended(int status) {
  if (WIFEXITED(status)) {
    return WEXITSTATUS(status) == 0 ? ""
                                    : fmt::format("exited with status {}", WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {}", WTERMSIG(status));
  return fmt::format("ended with wait status {}", status);
}

}  // namespace

ClientProcesses::~ClientProcesses() {
  for (auto& child : children_) {
    child.lines.reset();
    if (child.reaped) continue;
    ::kill(child.pid, SIGKILL);
    reap_one(child, /*block=*/true);
  }
}

void ClientProcesses::start(const std::function<int(int fd)>& body) {
  const std::size_t number = children_.size() + 1;
  // The child copies this thread alone and goes on to run Asio and fmt: a lock another
  // thread held at the fork (in malloc, stdio, fmt) would stay locked in it for good.
  if (const std::size_t threads = threads_of_this_process(); threads > 1) {
    throw fixtures::HarnessError(fmt::format(
        "cannot fork client process {}: loiter runs {} threads, and a forked child would keep "
        "any lock the others hold; client processes are forked before any thread starts",
        number, threads));
  }
  auto pipe = fixtures::make_pipe(fmt::format("client process {}", number));
  children_.reserve(number);  // so that the push_back below cannot throw once it runs
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    throw fixtures::HarnessError(
        fmt::format("cannot fork client process {}: {}", number, std::strerror(errno)));
  }
  if (pid == 0) {
    become_client(parent);
    pipe.read.reset();
    for (auto& other : children_) other.lines.reset();  // the earlier children's pipes
    int code = 1;
    try {
      code = body(pipe.write.get());
    } catch (...) {
    }
    ::_exit(code);
  }
  pipe.write.reset();  // the child's end
  children_.push_back({.pid = pid, .lines = std::move(pipe.read)});
}

void ClientProcesses::read_from(std::size_t process,
                                const std::function<void(std::size_t, std::string_view)>& on_line) {
  auto& child = children_[process];
  char chunk[65536];
  const ssize_t n = ::read(child.lines.get(), chunk, sizeof chunk);
  if (n < 0 && errno == EINTR) return;
  if (n <= 0) {  // the end of its lines (or a broken pipe: its exit status says why)
    child.lines.reset();
    return;
  }
  child.buffer.append(chunk, static_cast<std::size_t>(n));
  std::size_t from = 0;
  for (std::size_t end; (end = child.buffer.find('\n', from)) != std::string::npos;
       from = end + 1) {
    on_line(process, std::string_view(child.buffer).substr(from, end - from));
  }
  child.buffer.erase(0, from);
}

ClientProcesses::Pumped ClientProcesses::pump(
    const std::function<void(std::size_t, std::string_view)>& on_line,
    const std::function<void()>& tick, const std::function<bool()>& stop, Clock::time_point until,
    milliseconds tick_every) {
  while (true) {  // bounded by `until`
    std::vector<pollfd> polled;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < children_.size(); ++i) {
      if (!children_[i].lines) continue;
      polled.push_back({.fd = children_[i].lines.get(), .events = POLLIN, .revents = 0});
      which.push_back(i);
    }
    if (polled.empty()) return Pumped::ended;
    if (stop()) return Pumped::stopped;
    if (Clock::now() >= until) return Pumped::timed_out;
    const int ready = ::poll(polled.data(), polled.size(), static_cast<int>(tick_every.count()));
    if (ready < 0 && errno != EINTR) {
      throw std::runtime_error(
          fmt::format("cannot poll the client processes' pipes: {}", std::strerror(errno)));
    }
    for (std::size_t k = 0; ready > 0 && k < polled.size(); ++k) {
      if (polled[k].revents != 0) read_from(which[k], on_line);
    }
    tick();
  }
}

bool ClientProcesses::reap_one(Child& child, bool block) {
  if (child.reaped) return true;
  while (true) {  // retries only on EINTR
    const pid_t got = ::waitpid(child.pid, &child.status, block ? 0 : WNOHANG);
    if (got == child.pid) {
      child.reaped = true;
      return true;
    }
    if (got == 0) return false;
    if (errno == EINTR) continue;
    child.reaped = true;  // ECHILD: not ours to wait for any more
    child.lost = true;
    return true;
  }
}

void ClientProcesses::stop(milliseconds grace) {
  for (auto& child : children_) {
    if (!child.reaped) ::kill(child.pid, SIGTERM);
  }
  reap(grace);
}

std::vector<std::string> ClientProcesses::reap(milliseconds within) {
  const auto until = Clock::now() + within;
  for (auto& child : children_) {
    if (reap_one(child, /*block=*/false)) continue;
    const auto left = std::chrono::ceil<milliseconds>(until - Clock::now());
    if (fixtures::wait_for_exit(child.pid, std::max(left, milliseconds::zero()))) {
      reap_one(child, /*block=*/true);  // exited: waitpid returns at once
    }
  }
  std::vector<std::string> endings;
  for (auto& child : children_) {
    if (!child.reaped) {
      ::kill(child.pid, SIGKILL);
      reap_one(child, /*block=*/true);
    }
    endings.push_back(child.lost ? "could not be waited for" : how_it_ended(child.status));
  }
  return endings;
}

}  // namespace loiter::suites
