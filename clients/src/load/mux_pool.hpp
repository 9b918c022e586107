// What the multiplexing exchanges (HTTP/2: h2_load_run.hpp, HTTP/3: h3_load_run.hpp) share
// of their pool: a due request given a stream slot on a connection that has one (the wake's
// own while it has one, the next wake beginning on the next connection), the streams a
// connection turned back sent again first, a fresh-churn request given a connection object
// of its own (a closed one reused), and a stream's bookkeeping once its request went: its
// place on its connection, its dispatch counted once, replace_every. Each protocol's run gives
// the few things that differ: can_take(conn), submit(conn, stream), open(conn), new_stream and
// its Conn and Stream types; both Phase enums have `draining`.
#pragma once

#include <memory>

#include "load_engine.hpp"

namespace loiter::clients::load_detail::mux {

// A stream for the request `ticket`, from the spare ones (made when none is): nothing is
// allocated per request once the run is warm.
template <typename Run>
auto* take_stream(Run& run, const Ticket& ticket, RequestKind kind) {
  using Stream = std::remove_reference_t<decltype(*run.spare.back())>;
  if (run.spare.empty()) {
    run.stream_store.push_back(std::make_unique<Stream>());
    run.spare.push_back(run.stream_store.back().get());
  }
  Stream* stream = run.spare.back();
  run.spare.pop_back();
  *stream = Stream{.ticket = ticket, .kind = kind};
  ++run.live;
  return stream;
}

// The stream off its connection's list (the last one takes its place).
template <typename Stream>
void leave_connection(Stream& stream) {
  if (auto* conn = stream.conn; conn != nullptr) {
    auto& streams = conn->streams;
    if (stream.slot < streams.size() && streams[stream.slot] == &stream) {
      streams[stream.slot] = streams.back();
      streams[stream.slot]->slot = stream.slot;
      streams.pop_back();
    }
  }
  stream.conn = nullptr;
}

// The stream is over: off its connection and back among the spare ones.
template <typename Run, typename Stream>
void give_back(Run& run, Stream& stream) {
  leave_connection(stream);
  run.spare.push_back(&stream);
  --run.live;
}

// A closed connection at the watch: its retry awaited, or opened again once it is due and a
// request wants it (`wanted`: one is due, or turned back), or for its fresh stream; a fresh
// stream whose send window passed stays requested, not dispatched.
template <typename Run, typename Conn>
void reopen_when_due(Run& run, Conn& conn, Clock::time_point now, bool wanted) {
  if (conn.retry_at > now) {
    run.next_retry = std::min(run.next_retry, conn.retry_at);
  } else if (conn.fresh && !conn.streams.empty() && now >= run.send_until) {
    run.drop_stream(*conn.streams[0]);  // too late: stays requested, not dispatched
  } else if (conn.retry_at != kNever && (wanted || (conn.fresh && !conn.streams.empty()))) {
    run.open(conn);
  }
}

// The watch every multiplexing exchange keeps (Engine::watch): a closed connection reopened
// when due, an open one past its deadline expired; for each live one, the protocol's own
// timers (`live`: false when the connection went meanwhile), every stream past its deadline
// timed out (`time_out`), then `after` (what the protocol learns once they are done); and the
// requests turned back for want of credit, timed out once past their deadline.
template <typename Run, typename Live, typename TimeOut, typename After>
void watch(Run& run, Clock::time_point now, Live live, TimeOut time_out, After after) {
  const bool wanted = run.next_due(now).has_value() || !run.again.empty();
  for (auto* pool : {&run.conns, &run.fresh}) {
    for (auto& c : *pool) {
      auto& conn = *c;
      if (conn.state == LinkState::closed) {
        reopen_when_due(run, conn, now, wanted);
        continue;
      }
      if (conn.deadline <= now) {
        run.expire(conn);
        continue;
      }
      if (!live(conn)) continue;
      for (std::size_t i = conn.streams.size(); i-- > 0;) {  // a timeout may drop one
        if (i >= conn.streams.size()) continue;
        auto& stream = *conn.streams[i];
        if (stream.id >= 0 && stream.deadline <= now) time_out(stream);
      }
      after(conn);
    }
  }
  for (std::size_t i = run.again.size(); i-- > 0;) {
    auto* stream = run.again[i];
    if (stream->deadline > now) continue;
    run.again.erase(run.again.begin() + static_cast<std::ptrdiff_t>(i));
    time_out(*stream);
  }
}

// A connection with a free stream slot: the wake's own while it has one, then the next ones
// (round robin); null if none. A wake's streams go on one connection as far as they can: one
// send carries them all, and the server answers them in one write, where spreading them would
// cost a send, a server read and an answer wake each (wakes and sends are most of the
// generator's CPU).
template <typename Run>
auto* slot(Run& run) {
  const std::size_t n = run.conns.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (run.cursor + k) % n;
    if (run.can_take(*run.conns[i])) {
      run.cursor = i;
      return run.conns[i].get();
    }
  }
  return decltype(run.conns[0].get()){nullptr};
}

// A fresh-churn stream's own connection (a closed one reused), opened.
template <typename Run, typename Stream>
void open_fresh(Run& run, Stream& stream) {
  decltype(run.fresh[0].get()) conn = nullptr;
  for (auto& c : run.fresh) {  // a closed one is reused
    if (c->phase == decltype(c->phase)::closed && c->streams.empty()) {
      conn = c.get();
      break;
    }
  }
  if (conn == nullptr) {
    using Conn = std::remove_reference_t<decltype(*conn)>;
    run.fresh.push_back(std::make_unique<Conn>());
    conn = run.fresh.back().get();
    conn->run = &run;
    conn->fresh = true;
  }
  stream.conn = conn;
  stream.id = -1;
  stream.slot = 0;
  conn->streams.push_back(&stream);
  run.open(*conn);
}

// The streams turned back sent again, then every request due by now (never earlier, within
// the burst cap); a request with no slot anywhere waits (no_slot: answers are heard at once).
template <typename Run>
void dispatch(Run& run, Clock::time_point now) {
  run.no_slot = false;
  run.cursor = (run.cursor + 1) % run.conns.size();  // each wake begins on the next connection
  while (!run.again.empty()) {  // bounded by the queue: each turn sends one or stops
    auto* conn = slot(run);
    if (conn == nullptr) {
      run.no_slot = true;
      return;
    }
    auto* stream = run.again.front();
    run.again.pop_front();
    run.submit(*conn, *stream);
  }
  for (;;) {  // bounded by the requests due by now
    const auto at = run.next_due(now);
    if (!at || *at > now || run.over_burst_cap()) return;
    const auto kind = run.churn ? request_kind(run.options.churn, run.next) : RequestKind::pooled;
    auto* conn = kind == RequestKind::fresh ? nullptr : slot(run);
    if (kind != RequestKind::fresh && conn == nullptr) {
      run.no_slot = true;
      return;
    }
    auto* stream = run.new_stream(*run.take_due(now), kind);
    if (conn == nullptr) {
      open_fresh(run, *stream);
    } else {
      run.submit(*conn, *stream);
    }
  }
}

// The stream's request went on `conn`: its place there (a fresh connection's one stream has
// it from the connect on), its dispatch counted once however often it goes, and the
// connection draining once replace_every streams went on it.
template <typename Run, typename Conn, typename Stream>
void submitted(Run& run, Conn& conn, Stream& stream) {
  stream.conn = &conn;
  if (!conn.fresh) {
    stream.slot = conn.streams.size();
    conn.streams.push_back(&stream);
  }
  if (!stream.noted) {  // dispatched: its HEADERS are written in this wake's flush
    stream.noted = true;
    note_sent(run, stream.ticket, stream.sent);
  }
  ++conn.opened_streams;
  const auto every = run.options.churn.replace_every;
  if (every > 0 && !conn.fresh && conn.opened_streams >= every) {
    conn.phase = decltype(conn.phase)::draining;
    conn.replacing = true;
  }
}

}  // namespace loiter::clients::load_detail::mux
