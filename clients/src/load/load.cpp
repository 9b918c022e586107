// The open-loop generator's pacing. Each wake reads what the connections have for it, gives
// every request due by now (never earlier) to a free connection, and arms the next wake: the
// next due request (on the tick's grid, when there is one), a connect retry, or the deadline
// watch. It asks Asio to wake it for answers only when it must hear them at once: nothing is
// due soon, every connection is busy, or the answers carry no receive timestamp (TLS).
#include "loiter/clients/load/load.hpp"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cmath>
#include <stdexcept>

#include "load_run.hpp"
#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients {
namespace {

using namespace load_detail;
using boost::system::error_code;

// When the next wake is this close, answers wait for it: read then, timed by the kernel.
constexpr auto kLazyHorizon = 2ms;
constexpr int kEventsPerPoll = 64;
constexpr int kPollRounds = 64;  // a wake reads at most this many full arrays of events

std::string build_request(const LoadOptions& o, std::string_view path, bool connection_close) {
  const std::string host = fmt::format("{}:{}", o.server.address().to_string(), o.server.port());
  std::string bytes = request_head({.method = o.method,
                                    .path = path,
                                    .host = host,
                                    .content_length = o.body.size(),
                                    .connection_close = connection_close});
  return bytes + o.body;
}

// Every event the epoll set holds now, without waiting: an event of a parked or closed
// descriptor is dropped (a parked connection is looked at when it comes back).
void poll_events(Run& run) {
  epoll_event events[kEventsPerPoll];
  for (int round = 0; round < kPollRounds; ++round) {
    const int n = ::epoll_wait(run.epoll_fd, events, kEventsPerPoll, 0);
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      Conn* conn = run.owner_of(fd);
      if (conn != nullptr && conn->fd == fd) on_ready(run, *conn);
    }
    if (n < kEventsPerPoll) return;
  }
}

// Deadlines and connect retries of the connections carrying a ticket.
void watch(Run& run, Clock::time_point now) {
  run.next_retry = kNever;
  for (auto& c : run.conns) {
    Conn& conn = *c;
    if (!conn.ticket) {  // opened ahead of the schedule, maybe not yet
      if (conn.deadline <= now) expire(run, conn);
      continue;
    }
    if (conn.retry_at <= now) {
      if (now >= run.send_until) {
        release(run, conn);  // too late: stays requested, not dispatched
        continue;
      }
      begin_connect(run, conn);
    } else if (conn.deadline <= now) {
      expire(run, conn);
    }
    if (conn.ticket) run.next_retry = std::min(run.next_retry, conn.retry_at);
  }
}

// True when this millisecond has had its share of sends (twice the mean), counted as the
// tallies count them (by the time each request was written): the rest wait for the next.
bool over_burst_cap(Run& run) {
  const auto now = Clock::now();
  if (run.burst_cap == 0 || now < run.options.start) return false;
  const auto ms = static_cast<std::size_t>((now - run.options.start) / 1ms);
  if (ms >= run.sends_per_ms.size() || run.sends_per_ms[ms] < run.burst_cap) return false;
  run.burst_wait = run.options.start + std::chrono::milliseconds(ms + 1);
  return true;
}

// Gives every request due by `now` to a free connection, within the burst cap.
void dispatch(Run& run, Clock::time_point now) {
  while (!run.free.empty()) {  // bounded by the free connections
    if (over_burst_cap(run)) return;
    const auto ticket = run.take_due(now);
    if (!ticket) return;
    Conn& conn = *run.free.front();
    run.free.pop_front();
    ++run.busy;
    conn.ticket = ticket;
    conn.kind = run.churn ? request_kind(run.options.churn, ticket->index) : RequestKind::pooled;
    if (conn.kind != RequestKind::pooled) park(run, conn);
    if (conn.fd < 0) {
      begin_connect(run, conn);
    } else if (conn.phase == Phase::idle) {
      start_exchange(run, conn);
    }  // else still being opened ahead of the schedule: its request goes once it is
  }
}

void step(const std::shared_ptr<Run>& self);

void arm_pacer(const std::shared_ptr<Run>& self, Clock::time_point at) {
  Run& run = *self;
  if (at == run.pacer_at) return;  // the pending wait stands
  run.pacer_at = at;
  const auto generation = ++run.pacer_generation;
  if (at == kNever) {
    run.pacer.cancel();
    return;
  }
  run.pacer.expires_at(at);
  run.pacer.async_wait([self, generation](const error_code&) {
    if (generation != self->pacer_generation) return;
    self->pacer_at = kNever;
    step(self);
  });
}

// Asio watches the epoll set (one registration) only while answers must be heard at once.
void hear_answers(const std::shared_ptr<Run>& self, bool hear) {
  Run& run = *self;
  if (!hear) {
    if (!run.waker.is_open()) return;
    ++run.waker_generation;
    run.waker_waiting = false;
    run.waker.release();
    return;
  }
  if (!run.waker.is_open()) {
    error_code ignored;
    run.waker.assign(run.epoll_fd, ignored);
  }
  if (run.waker_waiting) return;
  run.waker_waiting = true;
  const auto generation = ++run.waker_generation;
  run.waker.async_wait(Descriptor::wait_read, [self, generation](const error_code& ec) {
    if (generation != self->waker_generation) return;
    self->waker_waiting = false;
    if (!ec) step(self);
  });
}

void schedule(const std::shared_ptr<Run>& self, Clock::time_point now) {
  Run& run = *self;
  auto wake = std::min(run.next_retry, run.give_up);
  if (run.busy > 0) wake = std::min(wake, run.next_watch);
  bool starved = false;  // the next request will wait for a connection
  if (const auto due = run.next_due(now)) {
    starved = run.free.empty();
    auto at = *due;  // on the tick's grid, and after a millisecond the burst cap closed
    if (run.options.tick > Duration::zero()) {
      const auto ticks = (at - run.options.start + run.options.tick - 1ns) / run.options.tick;
      at = run.options.start + std::max<Duration::rep>(0, ticks) * run.options.tick;
    }
    if (!starved) wake = std::min(wake, std::max(at, run.burst_wait));
  }
  const bool hear =
      run.busy > 0 && (!run.stamped || starved || run.closed_loop || wake - now > kLazyHorizon);
  arm_pacer(self, wake);
  hear_answers(self, hear);
}

void end(const std::shared_ptr<Run>& self) {
  Run& run = *self;
  run.ended = true;
  for (auto& conn : run.conns) {
    if (conn->parked) unpark(run, *conn);
    close_conn(run, *conn);
  }
  finish(run);
  arm_pacer(self, kNever);
  hear_answers(self, false);
}

void step(const std::shared_ptr<Run>& self) {
  Run& run = *self;
  if (run.ended) return;
  poll_events(run);
  run.ask_stop_early();  // once a wake
  const auto now = Clock::now();
  if (now >= run.next_watch || now >= run.next_retry) {
    watch(run, now);
    run.next_watch = now + run.watch_every;
  }
  dispatch(run, now);
  if ((run.busy == 0 && !run.next_due(now)) || now >= run.give_up) return end(self);
  schedule(self, now);
}

void check_options(const LoadOptions& options) {
  if (!options.allow_non_loopback) require_loopback(options.server, options.allowed_remote);
  if (!(options.rate >= 0.0) || !std::isfinite(options.rate)) {
    throw std::invalid_argument(fmt::format("load rate must be >= 0, not {}", options.rate));
  }
  if (options.connections == 0) throw std::invalid_argument("load needs at least one connection");
  if (options.tick < Duration::zero()) throw std::invalid_argument("load tick must be >= 0");
  if (options.share.parts == 0 || options.share.part >= options.share.parts) {
    throw std::invalid_argument(fmt::format("a load share is part 0 … parts-1, not {} of {}",
                                            options.share.part, options.share.parts));
  }
  const auto& churn = options.churn;
  const double shares[] = {churn.fresh, churn.server_close, churn.abort};
  double sum = 0.0;
  for (const double share : shares) {
    if (!(share >= 0.0 && share <= 1.0)) {
      throw std::invalid_argument(fmt::format("a churn share must be in [0, 1], not {}", share));
    }
    sum += share;
  }
  if (sum > 1.0 + 1e-9) {
    throw std::invalid_argument(fmt::format("the churn shares add up to {} (> 1)", sum));
  }
}

}  // namespace

namespace load_detail {

Run::~Run() {
  for (auto& conn : conns) {
    if (conn->fd >= 0) ::close(conn->fd);
    if (conn->parked_fd >= 0) ::close(conn->parked_fd);
  }
  if (waker.is_open()) waker.release();
  if (epoll_fd >= 0) ::close(epoll_fd);
}

void Run::ask_stop_early() {
  if (stopped || !options.stop_early || !options.stop_early()) return;
  stopped = true;
  if (!closed_loop) end = next;  // the schedule ends here
}

std::optional<Clock::time_point> Run::next_due(Clock::time_point now) const {
  if (stopped || now >= send_until) return std::nullopt;
  if (closed_loop) return now < schedule_end ? std::optional(now) : std::nullopt;
  if (next >= end) return std::nullopt;
  return due(next);
}

std::optional<Ticket> Run::take_due(Clock::time_point now) {
  const auto at = next_due(now);
  if (!at || *at > now) return std::nullopt;
  const auto index = next;
  next += closed_loop ? 1 : options.share.parts;
  return Ticket{index, *at};
}

}  // namespace load_detail

void spawn_load(asio::io_context& io, const LoadOptions& options, LoadResult& out) {
  check_options(options);
  auto run = std::make_shared<Run>(io.get_executor(), options, out);
  run->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (run->epoll_fd < 0) {
    throw std::runtime_error(fmt::format("load: epoll_create1: {}", std::strerror(errno)));
  }
  const double seconds = std::chrono::duration<double>(options.duration).count();
  out = LoadResult{};
  out.started = options.start;
  run->closed_loop = options.rate == 0.0;
  run->ns_per_request = run->closed_loop ? 0.0 : 1e9 / options.rate;
  const double share_rate = options.rate / static_cast<double>(options.share.parts);
  run->burst_cap = run->closed_loop
                       ? 0
                       : static_cast<std::uint32_t>(std::max(1.0, std::ceil(share_rate / 500)));
  run->end = run->closed_loop ? 0 : static_cast<std::uint64_t>(std::floor(options.rate * seconds));
  run->next = run->closed_loop ? 0 : options.share.part;
  out.requested = run->share_below(run->end);
  const auto& churn = options.churn;
  run->churn = churn.any();
  run->stamped = !options.tls;
  run->request = build_request(options, options.path, false);
  run->close_request = build_request(options, options.path, true);
  run->abort_request =
      build_request(options, churn.abort_path.empty() ? options.path : churn.abort_path, false);
  run->head = options.method == "HEAD";
  run->schedule_end = options.start + options.duration;
  run->send_until = run->schedule_end + options.send_grace;
  run->give_up = run->send_until + options.request_timeout + 5s;
  run->first_window_end = options.start + options.edge_window;
  run->last_window_start = run->schedule_end - options.edge_window;
  run->watch_every =
      std::clamp<Duration>(options.request_timeout / 20, Duration(1ms), Duration(50ms));
  run->next_watch = options.start;
  run->next_retry = kNever;
  run->sends_per_ms.assign(
      static_cast<std::size_t>((options.duration + options.send_grace) / 1ms) + 2, 0);
  run->seconds.resize(static_cast<std::size_t>(std::max(1.0, std::ceil(seconds))));
  for (std::size_t i = 0; i < options.connections; ++i) {
    run->conns.push_back(std::make_unique<Conn>());
    run->free.push_back(run->conns.back().get());
  }
  asio::post(io, [run] {
    // The pool is opened ahead of the schedule (as wrk and h2load do): the first requests
    // neither wait for a connect nor go out together when the connects complete.
    for (auto& conn : run->conns) begin_connect(*run, *conn);
    step(run);
  });
}

}  // namespace loiter::clients
