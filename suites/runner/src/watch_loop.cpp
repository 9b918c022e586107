// The watch's loop: sample, hand it on, sleep in ppoll() until the next sample is due.
// SIGINT and SIGTERM are blocked except inside ppoll(), so a Ctrl-C during a sample is not
// lost between the check and the sleep: it ends the next ppoll() at once.
#include "loiter/suites/runner/watch_loop.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "loiter/fixtures/os/fd.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/runner/interrupt.hpp"

namespace loiter::suites {

namespace {

using std::chrono::steady_clock;

// SIGINT and SIGTERM blocked while it lives; `open()` is the mask to sleep with.
class BlockedStops {
 public:
  BlockedStops() {
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &stops, &before_);
    open_ = before_;
    sigdelset(&open_, SIGINT);
    sigdelset(&open_, SIGTERM);
  }
  ~BlockedStops() { ::sigprocmask(SIG_SETMASK, &before_, nullptr); }
  BlockedStops(const BlockedStops&) = delete;
  BlockedStops& operator=(const BlockedStops&) = delete;
  const sigset_t& open() const { return open_; }

 private:
  sigset_t before_{}, open_{};
};

enum class Wake { due, exited, interrupted };

// Sleeps until `until`, the server's exit (its pidfd readable) or a stop signal.
Wake sleep_until(steady_clock::time_point until, const fixtures::Fd& server,
                 const BlockedStops& stops) {
  while (true) {
    if (interrupted()) return Wake::interrupted;
    const auto left = until - steady_clock::now();
    if (left <= steady_clock::duration::zero()) return Wake::due;
    const auto s = std::chrono::duration_cast<std::chrono::seconds>(left);
    const timespec timeout{.tv_sec = s.count(),
                           .tv_nsec = std::chrono::nanoseconds(left - s).count()};
    pollfd exited{.fd = server.get(), .events = POLLIN, .revents = 0};
    const int ready = ::ppoll(&exited, server ? 1 : 0, &timeout, &stops.open());
    if (ready > 0) return Wake::exited;
    if (ready < 0 && errno != EINTR) {
      throw std::runtime_error(
          fmt::format("cannot wait for the next sample (ppoll): {}", std::strerror(errno)));
    }
  }
}

}  // namespace

WatchEnd watch_server(const fixtures::Probe& probe, pid_t server, const WatchSink& sink,
                      std::chrono::milliseconds duration, std::chrono::milliseconds period) {
  const BlockedStops stops;
  // Opened once: the process watched stays this one, even if its PID is reused later.
  const fixtures::Fd exit_fd = fixtures::pidfd_open(server);
  WatchEnd end;
  const auto take = [&] {
    const auto at = std::chrono::system_clock::now();
    const auto sample = probe.sample();
    sink(at, sample);
    if (end.samples++ == 0) end.first_fds = sample.fds;
    end.peak_fds = std::max(end.peak_fds, sample.fds);
    end.last_fds = sample.fds;
    return sample.processes > 0;  // 0: the server's tree is gone
  };
  const auto ended = [&](WatchEnding why) {
    end.ended_by = why;
    return end;
  };
  const auto start = steady_clock::now();
  const auto stop = start + duration;
  for (std::int64_t n = 0;;) {
    if (!take()) return ended(WatchEnding::server_exited);
    // The next sample on the start's schedule; a sample that ran late skips, not shifts.
    n = std::max<std::int64_t>(n + 1, (steady_clock::now() - start) / period + 1);
    const steady_clock::time_point next = start + n * period;
    const auto wake = sleep_until(std::min(next, stop), exit_fd, stops);
    if (wake == Wake::interrupted) return ended(WatchEnding::interrupt);
    if (wake == Wake::exited) {
      take();
      return ended(WatchEnding::server_exited);
    }
    if (next >= stop) return ended(WatchEnding::duration);
  }
}

Observed observe_server(SessionPlan plan, std::chrono::milliseconds duration,
                        std::chrono::milliseconds period,
                        const std::function<WatchSink(const WatchSubject&)>& begin) {
  const auto port = plan.running.port;
  std::optional<ServerSession> session;
  try {
    session.emplace(std::move(plan));
  } catch (const fixtures::StartError& e) {
    if (e.problem() != fixtures::StartProblem::cancelled) throw;
    return {};
  }
  WatchSubject subject{.pid = *session->pid(), .port = port};
  if (const auto* server = session->server()) {
    subject.port = server->port();
    subject.host = server->host();
    subject.target = server->target().name;
  }
  const auto sink = begin(subject);
  Observed observed{.end = watch_server(*session->probe(), subject.pid, sink, duration, period)};
  observed.stopped = session->stop();
  return observed;
}

}  // namespace loiter::suites
