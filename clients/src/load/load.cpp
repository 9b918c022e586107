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

// Gives every request due by `now` to a free connection, within the burst cap.
void dispatch(Run& run, Clock::time_point now) {
  while (!run.free.empty()) {  // bounded by the free connections
    if (run.over_burst_cap()) return;
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

// What the pacer and the waker call.
constexpr auto load_wake = [](const std::shared_ptr<Run>& self) { step(self); };

void schedule(const std::shared_ptr<Run>& self, Clock::time_point now) {
  Run& run = *self;
  auto wake = std::min(run.next_retry, run.give_up);
  if (run.busy > 0) wake = std::min(wake, run.next_watch);
  bool starved = false;  // the next request will wait for a connection
  if (const auto due = run.next_due(now)) {
    starved = run.free.empty();
    if (!starved) wake = std::min(wake, run.paced(*due));
  }
  const bool hear =
      run.busy > 0 && (!run.stamped || starved || run.closed_loop || wake - now > kLazyHorizon);
  arm_pacer(self, wake, load_wake);
  hear_answers(self, hear, load_wake);
}

void end(const std::shared_ptr<Run>& self) {
  Run& run = *self;
  run.ended = true;
  for (auto& conn : run.conns) {
    if (conn->parked) unpark(run, *conn);
    close_conn(run, *conn);
  }
  finish(run);
  arm_pacer(self, kNever, load_wake);
  hear_answers(self, false, load_wake);
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

}  // namespace

namespace load_detail {

Run::~Run() {
  for (auto& conn : conns) {
    if (conn->fd >= 0) ::close(conn->fd);
    if (conn->parked_fd >= 0) ::close(conn->parked_fd);
  }
}

}  // namespace load_detail

void spawn_load(asio::io_context& io, const LoadOptions& options, LoadResult& out) {
  check_options(options);
  if (options.h2) return spawn_h2_load(io, options, out);
  auto run = std::make_shared<Run>(io.get_executor(), options, out);
  const auto& churn = options.churn;
  run->churn = churn.any();
  run->stamped = !options.tls;
  run->request = build_request(options, options.path, false);
  run->close_request = build_request(options, options.path, true);
  run->abort_request =
      build_request(options, churn.abort_path.empty() ? options.path : churn.abort_path, false);
  run->head = options.method == "HEAD";
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
