// The one load engine (load_engine.hpp): a link's opening, the wake and its pacing, the end.
#include "load_engine.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "load_socket.hpp"

namespace loiter::clients::load_detail {

namespace {

// When the next wake is this close, answers wait for it: read then, timed by the kernel's
// receive time. A read that takes several of the server's writes at once times them all by
// the last one's arrival: an answer is then counted late by at most the time between them
// (within this horizon), never early.
constexpr auto kLazyHorizon = 2ms;
constexpr int kEventsPerPoll = 64;
constexpr int kPollRounds = 64;  // a wake reads at most this many full arrays of events

using EnginePtr = std::shared_ptr<Engine>;

void step(const EnginePtr& self);

// The pacer's wait, armed for `at` (kNever: none).
void arm_pacer(const EnginePtr& self, Clock::time_point at) {
  Engine& run = *self;
  if (at == run.pacer_at) return;  // the pending wait stands
  run.pacer_at = at;
  const auto generation = ++run.pacer_generation;
  if (at == kNever) {
    run.pacer.cancel();
    return;
  }
  run.pacer.expires_at(at);
  run.pacer.async_wait([self, generation](const boost::system::error_code&) {
    if (generation != self->pacer_generation) return;
    self->pacer_at = kNever;
    step(self);
  });
}

// Asio watches the epoll set (one registration) only while answers must be heard at once.
void hear_answers(const EnginePtr& self, bool hear) {
  Engine& run = *self;
  if (!hear) {
    if (!run.waker.is_open()) return;
    ++run.waker_generation;
    run.waker_waiting = false;
    run.waker.release();
    return;
  }
  if (!run.waker.is_open()) {
    boost::system::error_code ignored;
    run.waker.assign(run.epoll_fd, ignored);
  }
  if (run.waker_waiting) return;
  run.waker_waiting = true;
  const auto generation = ++run.waker_generation;
  run.waker.async_wait(Descriptor::wait_read,
                       [self, generation](const boost::system::error_code& ec) {
                         if (generation != self->waker_generation) return;
                         self->waker_waiting = false;
                         if (!ec) step(self);
                       });
}

// Every event the epoll set holds now, without waiting: an event of a descriptor its link no
// longer holds (closed, or an HTTP/1.1 connection set aside) is dropped.
void poll_events(Engine& run) {
  epoll_event events[kEventsPerPoll];
  for (int round = 0; round < kPollRounds; ++round) {
    const int n = ::epoll_wait(run.epoll_fd, events, kEventsPerPoll, 0);
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      Link* link = run.owner_of(fd);
      if (link != nullptr && link->fd == fd) run.link_event(*link);
    }
    if (n < kEventsPerPoll) return;
  }
}

// The next wake: the next due request (on the tick's grid, unless it would wait for a
// connection or a slot anyway), a retry, the deadline watch while requests are out, or the
// end; and whether answers are heard before it.
void schedule(const EnginePtr& self, Clock::time_point now) {
  Engine& run = *self;
  auto wake = std::min(run.next_retry, run.give_up);
  const std::size_t in_flight = run.in_flight();
  if (in_flight > 0) wake = std::min(wake, run.next_watch);
  const auto due = run.next_due(now);
  const bool starved = run.starved(due.has_value());
  if (due && !starved) wake = std::min(wake, run.paced(*due));
  const bool hear =
      starved || run.opening() ||
      (in_flight > 0 && (!run.stamped || run.closed_loop || wake - now > kLazyHorizon));
  arm_pacer(self, wake);
  hear_answers(self, hear);
}

void end(const EnginePtr& self) {
  Engine& run = *self;
  run.ended = true;
  run.close_all();
  finish(run);
  arm_pacer(self, kNever);
  hear_answers(self, false);
}

void step(const EnginePtr& self) {
  Engine& run = *self;
  if (run.ended) return;
  poll_events(run);
  run.flush();           // acks, window updates, retirements, before new requests
  run.ask_stop_early();  // once a wake
  const auto now = Clock::now();
  run.cost.tick(now);
  if (now >= run.next_watch || now >= run.next_retry) {
    run.next_retry = kNever;  // the watch sets it again from the links that wait
    run.watch(now);
    run.next_watch = now + run.watch_every;
  }
  run.dispatch(now);
  run.flush();
  if ((run.in_flight() == 0 && !run.next_due(now)) || now >= run.give_up) return end(self);
  schedule(self, now);
}

}  // namespace

Engine::Engine(Executor executor, const LoadOptions& o, LoadResult& result,
               std::string_view alpn_name)
    : Schedule(executor, o, result), stamped(!o.tls), alpn(alpn_name) {
  if (!alpn.empty()) {  // wire format: its length, then its bytes
    alpn_wire.assign(alpn.size() + 1, static_cast<unsigned char>(alpn.size()));
    std::copy(alpn.begin(), alpn.end(), alpn_wire.begin() + 1);
  }
}

void Engine::open_link(Link& link) {
  link.retry_at = kNever;
  link.fd = open_load_socket(*this, stamped);
  if (link.fd < 0) return link_failed(link, "connect-failed");
  owner_of(link.fd) = &link;
  link.state = LinkState::connecting;
  link.deadline = Clock::now() + options.request_timeout;
}

void Engine::link_event(Link& link) {
  if (link.state == LinkState::open) return ready(link);
  if (link.state == LinkState::closed) return;
  const OpenStep step = open_step(options.tls, link.fd, link.tls, alpn_wire);
  if (step.state == Opening::failed) return link_failed(link, step.failure);
  if (step.state == Opening::pending) {
    if (link.tls) link.state = LinkState::handshaking;  // within the same deadline
    return;
  }
  // A server that did not choose the protocol offered fails the opening (only it was offered).
  if (link.tls && !alpn.empty() && tls_alpn(link.tls.get()) != alpn) {
    return link_failed(link, "alpn");
  }
  link.state = LinkState::open;
  ++out.connections_opened;
  opened(link);
}

void Engine::link_failed(Link& link, const char* kind) {
  ++out.errors[kind];
  open_failed(link);
}

void Engine::expire(Link& link) {
  if (link.state == LinkState::connecting) return link_failed(link, "connect-failed");
  if (link.state == LinkState::handshaking) return link_failed(link, "handshake-failed");
  if (link.state == LinkState::open) expired(link);
}

void Engine::close_link(Link& link) {
  if (link.fd >= 0) {
    owner_of(link.fd) = nullptr;
    ::close(link.fd);  // leaves the epoll set with it
    link.fd = -1;
  }
  link.tls.reset();
  link.state = LinkState::closed;
}

void Engine::reopen_at(Link& link, Clock::time_point at) {
  link.retry_at = at;
  next_retry = std::min(next_retry, at);
}

void start_engine(std::shared_ptr<Engine> engine) {
  asio::post(engine->pacer.get_executor(), [engine] {
    engine->cost.start(engine->options.start);
    // The pool is opened ahead of the schedule (as wrk and h2load do): the first requests
    // neither wait for a connect nor go out together when the connects complete.
    engine->open_pool();
    step(engine);
  });
}

}  // namespace loiter::clients::load_detail
