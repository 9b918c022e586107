// The HTTP/2 generator's pacing, on the schedule the HTTP/1.1 one keeps (load_schedule.hpp).
// Each wake reads what the connections have (answers, SETTINGS, GOAWAYs), sends the streams
// a GOAWAY turned back, gives every request due by now (never earlier, within the burst cap)
// a stream on a connection with a free slot (the wake's own while it has one, the next wake
// beginning on the next connection), writes each touched connection's frames in one send,
// and arms the next wake. As the HTTP/1.1 generator does, it hears answers at once only when
// it must (see h2_schedule).
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "h2_load_run.hpp"

namespace loiter::clients::load_detail {

namespace {

// When the next wake is this close, answers wait for it: read then, timed by the kernel's
// receive time. A read that takes several of the server's writes at once times them all by
// the last one's arrival: an answer is then counted late by at most the time between them
// (within this horizon), never early.
constexpr auto kH2LazyHorizon = 2ms;
constexpr int kH2EventsPerPoll = 64;
constexpr int kH2PollRounds = 64;  // a wake reads at most this many full arrays of events

void h2_poll(H2Run& run) {
  epoll_event events[kH2EventsPerPoll];
  for (int round = 0; round < kH2PollRounds; ++round) {
    const int n = ::epoll_wait(run.epoll_fd, events, kH2EventsPerPoll, 0);
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      H2Conn* conn = run.owner_of(fd);
      if (conn != nullptr && conn->fd == fd) h2_on_ready(run, *conn);
    }
    if (n < kH2EventsPerPoll) return;
  }
}

void h2_flush_dirty(H2Run& run) {
  // A flush may retire a connection and mark none; the list is taken whole first.
  for (std::size_t i = 0; i < run.dirty.size(); ++i) h2_flush(run, *run.dirty[i]);
  run.dirty.clear();
}

// Deadlines (streams, connects, SETTINGS awaited) and reconnects.
void h2_watch(H2Run& run, Clock::time_point now) {
  run.next_retry = kNever;
  const bool wanted = run.next_due(now).has_value() || !run.again.empty();
  for (auto* pool : {&run.conns, &run.fresh}) {
    for (auto& c : *pool) {
      H2Conn& conn = *c;
      if (conn.phase == H2Phase::closed) {
        if (conn.retry_at > now) {
          run.next_retry = std::min(run.next_retry, conn.retry_at);
        } else if (conn.fresh && !conn.streams.empty() && now >= run.send_until) {
          run.drop_stream(*conn.streams[0]);  // too late: stays requested, not dispatched
        } else if (conn.retry_at != kNever && (wanted || (conn.fresh && !conn.streams.empty()))) {
          h2_begin_connect(run, conn);
        }
        continue;
      }
      if (conn.deadline <= now) {
        h2_expire(run, conn);
        continue;
      }
      for (std::size_t i = conn.streams.size(); i-- > 0;) {  // a timeout may drop one
        if (i >= conn.streams.size()) continue;
        H2Stream& stream = *conn.streams[i];
        if (!stream.done && stream.id >= 0 && stream.deadline <= now) h2_time_out(run, stream);
      }
    }
  }
  for (std::size_t i = run.again.size(); i-- > 0;) {
    H2Stream* stream = run.again[i];
    if (stream->deadline > now) continue;
    run.again.erase(run.again.begin() + static_cast<std::ptrdiff_t>(i));
    h2_time_out(run, *stream);
  }
}

// A connection with a free stream slot: the wake's own while it has one, then the next ones
// (round robin); null if none. A wake's streams go on one connection as far as they can: one
// send carries them all, and the server answers them in one write, where spreading them would
// cost a send, a server read and an answer wake each (wakes and sends are most of the
// generator's CPU).
H2Conn* h2_slot(H2Run& run) {
  const std::size_t n = run.conns.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (run.cursor + k) % n;
    if (h2_can_take(*run.conns[i])) {
      run.cursor = i;
      return run.conns[i].get();
    }
  }
  return nullptr;
}

void h2_dispatch(H2Run& run, Clock::time_point now) {
  run.starved = false;
  run.cursor = (run.cursor + 1) % run.conns.size();  // each wake begins on the next connection
  while (!run.again.empty()) {  // bounded by the queue: each turn sends one or stops
    H2Conn* conn = h2_slot(run);
    if (conn == nullptr) {
      run.starved = true;
      return;
    }
    H2Stream* stream = run.again.front();
    run.again.pop_front();
    h2_submit(run, *conn, *stream);
  }
  for (;;) {  // bounded by the requests due by now
    const auto at = run.next_due(now);
    if (!at || *at > now || run.over_burst_cap()) return;
    const auto kind = run.churn ? request_kind(run.options.churn, run.next) : RequestKind::pooled;
    H2Conn* conn = kind == RequestKind::fresh ? nullptr : h2_slot(run);
    if (kind != RequestKind::fresh && conn == nullptr) {
      run.starved = true;
      return;
    }
    H2Stream* stream = run.new_stream(*run.take_due(now), kind);
    if (conn == nullptr) {
      h2_open_fresh(run, *stream);
    } else {
      h2_submit(run, *conn, *stream);
    }
  }
}

void h2_step(const std::shared_ptr<H2Run>& self);

constexpr auto h2_wake = [](const std::shared_ptr<H2Run>& self) { h2_step(self); };

void h2_schedule(const std::shared_ptr<H2Run>& self, Clock::time_point now) {
  H2Run& run = *self;
  auto wake = std::min(run.next_retry, run.give_up);
  if (run.live > 0) wake = std::min(wake, run.next_watch);
  if (const auto due = run.next_due(now); due && !run.starved) {
    wake = std::min(wake, run.paced(*due));
  }
  // Heard at once: what a starved schedule waits for (a slot), a connection being opened (its
  // connect, handshake and SETTINGS go on between the schedule's wakes), every
  // answer over TLS (no receive time) or in a closed loop, and answers when the next wake is
  // far. Otherwise they wait for the next wake, at most kH2LazyHorizon away.
  const bool opening = std::any_of(run.conns.begin(), run.conns.end(), [](const auto& conn) {
    return conn->phase != H2Phase::closed && conn->phase != H2Phase::ready &&
           conn->phase != H2Phase::draining;
  });
  const bool hear =
      run.starved || opening ||
      (run.live > 0 && (!run.stamped || run.closed_loop || wake - now > kH2LazyHorizon));
  arm_pacer(self, wake, h2_wake);
  hear_answers(self, hear, h2_wake);
}

void h2_end(const std::shared_ptr<H2Run>& self) {
  H2Run& run = *self;
  run.ended = true;
  for (auto* pool : {&run.conns, &run.fresh}) {
    for (auto& conn : *pool) h2_close(run, *conn);
  }
  finish(run);
  arm_pacer(self, kNever, h2_wake);
  hear_answers(self, false, h2_wake);
}

void h2_step(const std::shared_ptr<H2Run>& self) {
  H2Run& run = *self;
  if (run.ended) return;
  h2_poll(run);
  h2_flush_dirty(run);   // acks, window updates, retirements, before new streams
  run.ask_stop_early();  // once a wake
  const auto now = Clock::now();
  if (now >= run.next_watch || now >= run.next_retry) {
    h2_watch(run, now);
    run.next_watch = now + run.watch_every;
  }
  h2_dispatch(run, now);
  h2_flush_dirty(run);
  if ((run.live == 0 && !run.next_due(now)) || now >= run.give_up) return h2_end(self);
  h2_schedule(self, now);
}

}  // namespace

H2Run::H2Run(Executor executor, const LoadOptions& o, LoadResult& result)
    : Schedule(executor, o, result) {}

H2Run::~H2Run() {
  for (auto* pool : {&conns, &fresh}) {
    for (auto& conn : *pool) {
      conn->session.reset();
      if (conn->fd >= 0) ::close(conn->fd);
    }
  }
  if (callbacks != nullptr) nghttp2_session_callbacks_del(callbacks);
  if (session_option != nullptr) nghttp2_option_del(session_option);
}

H2Stream* H2Run::new_stream(const Ticket& ticket, RequestKind kind) {
  if (spare.empty()) {
    stream_store.push_back(std::make_unique<H2Stream>());
    spare.push_back(stream_store.back().get());
  }
  H2Stream* stream = spare.back();
  spare.pop_back();
  *stream = H2Stream{.ticket = ticket, .kind = kind};
  ++live;
  return stream;
}

void H2Run::drop_stream(H2Stream& stream) {
  if (H2Conn* conn = stream.conn; conn != nullptr) {
    auto& streams = conn->streams;
    if (stream.slot < streams.size() && streams[stream.slot] == &stream) {
      streams[stream.slot] = streams.back();
      streams[stream.slot]->slot = stream.slot;
      streams.pop_back();
    }
  }
  stream.conn = nullptr;
  spare.push_back(&stream);
  --live;
}

void spawn_h2_load(asio::io_context& io, const LoadOptions& options, LoadResult& out) {
  auto run = std::make_shared<H2Run>(io.get_executor(), options, out);
  run->churn = options.churn.any();
  run->stamped = !options.tls;
  h2_setup(*run);
  for (std::size_t i = 0; i < options.connections; ++i) {
    run->conns.push_back(std::make_unique<H2Conn>());
    run->conns.back()->run = run.get();
  }
  asio::post(io, [run] {
    // The pool is opened ahead of the schedule (as h2load does), each connection ready for
    // streams once the server's SETTINGS came.
    for (auto& conn : run->conns) h2_begin_connect(*run, *conn);
    h2_step(run);
  });
}

}  // namespace loiter::clients::load_detail
