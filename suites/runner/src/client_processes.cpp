#include "client_processes.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include "loiter/fixtures/os/process.hpp"

namespace loiter::suites {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
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
    close_fd(child.fd);
    if (child.reaped) continue;
    ::kill(child.pid, SIGKILL);
    reap_one(child, /*block=*/true);
  }
}

void ClientProcesses::start(const std::function<int(int fd)>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(
        fmt::format("cannot create a pipe for a client process: {}", std::strerror(errno)));
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(fmt::format("cannot fork client process {}: {}", children_.size() + 1,
                                         std::strerror(error)));
  }
  if (pid == 0) {
    become_client(parent);
    ::close(fds[0]);
    for (auto& other : children_) close_fd(other.fd);  // the earlier children's pipes
    int code = 1;
    try {
      code = body(fds[1]);
    } catch (...) {
    }
    ::_exit(code);
  }
  ::close(fds[1]);
  children_.push_back({.pid = pid, .fd = fds[0]});
}

void ClientProcesses::read_from(std::size_t process,
                                const std::function<void(std::size_t, std::string_view)>& on_line) {
  auto& child = children_[process];
  char chunk[65536];
  const ssize_t n = ::read(child.fd, chunk, sizeof chunk);
  if (n < 0 && errno == EINTR) return;
  if (n <= 0) {  // the end of its lines (or a broken pipe: its exit status says why)
    close_fd(child.fd);
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
      if (children_[i].fd < 0) continue;
      polled.push_back({.fd = children_[i].fd, .events = POLLIN, .revents = 0});
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
