// The HTTP/2 exchange's connections: once the engine has opened one (through TLS with ALPN
// "h2"), the session's preface; reading with one big buffer into nghttp2, writing the frames
// of many streams in one send, and its end: lost (its unfinished streams fail, or go again
// after a GOAWAY), or retired by the client once a draining connection's streams are over, a
// pool connection then opened anew.
#include <unistd.h>

#include "h2_load_run.hpp"
#include "mux_pool.hpp"
#include "load_socket.hpp"

namespace loiter::clients::load_detail {

namespace {

constexpr int kH2ReadRounds = 64;                 // a wake reads at most this many buffers
constexpr std::size_t kH2SendChunk = 256 * 1024;  // frames gathered before one send

// Reads what has come (edge-triggered: until the socket has nothing more) into the session.
void h2_read(H2Run& run, H2Conn& conn) {
  for (int round = 0; round < kH2ReadRounds && conn.session; ++round) {
    // Answers read at a later wake are timed by the kernel's receive time (that of the last
    // segment this read took: see load_engine.cpp).
    const SocketIo read =
        read_some(conn.fd, conn.tls.get(), run.buffer.data(), run.buffer.size(), run.read_at);
    if (read.ec == asio::error::would_block) return;
    if (read.ec) return h2_lose(run, conn, io_error_kind(read.ec));
    const auto used = nghttp2_session_mem_recv(
        conn.session.get(), reinterpret_cast<const std::uint8_t*>(run.buffer.data()), read.bytes);
    if (used < 0) return h2_lose(run, conn, "protocol");
    h2_mark_dirty(run, conn);
    // A short read emptied the socket: what comes next raises a new edge (saves the recv
    // that would say EAGAIN). TLS may hold a record back, so it reads on until EAGAIN.
    if (!conn.tls && read.bytes < run.buffer.size()) return;
  }
}

}  // namespace

void h2_mark_dirty(H2Run& run, H2Conn& conn) {
  if (conn.dirty) return;
  conn.dirty = true;
  run.dirty.push_back(&conn);
}

void h2_close(H2Run& run, H2Conn& conn) {
  conn.session.reset();
  run.close_link(conn);
  conn.out.clear();
  conn.out_sent = 0;
  conn.goaway = false;
  conn.replacing = false;
  conn.last_stream = 0;
  conn.deadline = kNever;
  conn.phase = H2Phase::closed;
}

void h2_lose(H2Run& run, H2Conn& conn, const char* kind) {
  // A copy: dropping a stream reorders the connection's list.
  const std::vector<H2Stream*> streams = conn.streams;
  for (H2Stream* stream : streams) {
    if (conn.fresh && stream->id < 0) continue;  // not sent yet: it waits for a reconnect
    if (!stream->done && conn.goaway && stream->id > conn.last_stream) {
      mux::leave_connection(*stream);
      run.again.push_back(stream);
      continue;
    }
    if (!stream->done) {
      ++run.out.errors[kind];
      ++run.second_of(stream->ticket.due).failed;
    }
    run.drop_stream(*stream);
  }
  h2_close(run, conn);
  if (conn.fresh && conn.streams.empty()) return;
  run.reopen_at(conn, Clock::now());  // opened again (a fresh one for its stream not yet sent)
}

void h2_retire_if_done(H2Run& run, H2Conn& conn) {
  if (conn.phase != H2Phase::draining || !conn.streams.empty() || conn.out_sent < conn.out.size()) {
    return;
  }
  if (conn.replacing) ++run.out.replaced;
  h2_close(run, conn);
  if (conn.fresh) return;
  run.reopen_at(conn, Clock::now());
}

// Connected (and through TLS with "h2"): the preface goes, and streams wait for the server's
// SETTINGS (its MAX_CONCURRENT_STREAMS may be below nghttp2's assumption), by the opening's
// deadline.
void H2Run::opened(Link& link) {
  auto& conn = static_cast<H2Conn&>(link);
  if (!h2_start_session(*this, conn)) return link_failed(conn, "session");
  conn.phase = H2Phase::settling;
  conn.opened_streams = 0;
  h2_mark_dirty(*this, conn);
  ready(conn);  // the SETTINGS may be in already
}

void H2Run::ready(Link& link) {
  auto& conn = static_cast<H2Conn&>(link);
  if (conn.phase == H2Phase::closed) return;
  h2_read(*this, conn);
  if (conn.session) h2_mark_dirty(*this, conn);  // pending output, acks, a retirement
}

void H2Run::open_failed(Link& link) {
  auto& conn = static_cast<H2Conn&>(link);
  h2_close(*this, conn);
  reopen_at(conn, Clock::now() + kConnectRetry);
}

void H2Run::expired(Link& link) {
  link_failed(link, static_cast<H2Conn&>(link).phase == H2Phase::settling ? "no-settings"
                                                                          : "connect-failed");
}

void h2_flush(H2Run& run, H2Conn& conn) {
  conn.dirty = false;
  for (int round = 0; round < kH2ReadRounds && conn.session; ++round) {
    if (conn.out_sent == conn.out.size()) {
      conn.out.clear();
      conn.out_sent = 0;
      while (conn.out.size() < kH2SendChunk) {  // bounded by the chunk
        const std::uint8_t* data = nullptr;
        const auto n = nghttp2_session_mem_send(conn.session.get(), &data);
        if (n < 0) return h2_lose(run, conn, "protocol");
        if (n == 0) break;
        conn.out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
      }
      if (conn.out.empty()) break;
    }
    const char* data = conn.out.data() + conn.out_sent;
    const std::size_t size = conn.out.size() - conn.out_sent;
    const SocketIo sent = send_some(conn.fd, conn.tls.get(), data, size);
    if (sent.ec == asio::error::would_block) return;  // the writable edge goes on
    if (sent.ec) return h2_lose(run, conn, io_error_kind(sent.ec));
    conn.out_sent += sent.bytes;
    if (conn.out_sent < conn.out.size()) return;  // the socket is full: its next edge
  }
  h2_retire_if_done(run, conn);
}

}  // namespace loiter::clients::load_detail
