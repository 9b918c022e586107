// Waiting for a child process to exit, bounded, on the event itself: a pidfd becomes
// readable once its process has exited, so this sleeps in poll() until then, not in a
// timer loop. The child is left to be reaped (waitpid then returns at once).
#pragma once

#include <poll.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace loiter::suites {

// True once `pid` has exited (or is no longer there to watch: reaped already), false when
// `timeout` passed first. Throws std::runtime_error when the process cannot be watched
// (pidfd_open fails for another reason, or poll does).
inline bool wait_for_exit(pid_t pid, std::chrono::milliseconds timeout) {
  // glibc 2.36 has no pidfd_open wrapper to link.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    if (errno == ESRCH) return true;
    throw std::runtime_error("cannot watch process " + std::to_string(pid) +
                             " (pidfd_open): " + std::strerror(errno));
  }
  const auto until = std::chrono::steady_clock::now() + timeout;
  pollfd exited{.fd = pidfd, .events = POLLIN, .revents = 0};
  int ready;
  while (true) {  // bounded by `until`; retries only on EINTR
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    ready = ::poll(&exited, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
    if (ready >= 0 || errno != EINTR) break;
  }
  const int error = errno;
  ::close(pidfd);
  if (ready < 0) {
    throw std::runtime_error("cannot wait for process " + std::to_string(pid) +
                             " (poll): " + std::strerror(error));
  }
  return ready > 0;
}

}  // namespace loiter::suites
