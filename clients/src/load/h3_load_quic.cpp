// The HTTP/3 exchange's QUIC connections once open (h3_load_open.cpp opens them: a connected
// UDP socket of each's own in the engine's epoll set, ngtcp2 0.12 with GnuTLS beneath
// nghttp3). Datagrams
// are read one at a time into ngtcp2 (each timed by the kernel's receive time, as cleartext
// TCP answers are), packets written as ngtcp2 and nghttp3 have them, ngtcp2's timer watched
// by the engine's wakes. A connection ends by the server's CONNECTION_CLOSE (counted by its
// code in LoadResult::closes), a stateless reset, its idle timeout, or the client's own close.
#include <ngtcp2/ngtcp2_crypto_gnutls.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "h3_load_run.hpp"
#include "load_socket.hpp"

namespace loiter::clients::load_detail {

namespace {

constexpr int kReadRounds = 256;     // datagrams a wake reads at most from one connection
constexpr int kWriteRounds = 64;     // datagrams a flush writes at most on one connection
constexpr std::uint64_t kNoError = 0x0100;  // H3_NO_ERROR

Clock::time_point h3_quic_time(std::uint64_t ns) {
  if (ns == UINT64_MAX) return kNever;
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(Duration(ns)));
}

// The connection's timer after what was just read or written; the engine wakes for it, on
// the tick's grid (up to a tick late: an ACK a little after ngtcp2's 25 ms delay). Off the
// grid, 32 connections' timers each woke the generator apart from its requests, and each
// wake re-armed its timer (timerfd_settime was a quarter of its CPU at 5,000 a second).
void h3_arm_expiry(H3Run& run, H3Conn& conn) {
  conn.expiry =
      conn.quic != nullptr ? run.on_tick(h3_quic_time(ngtcp2_conn_get_expiry(conn.quic))) : kNever;
  run.next_retry = std::min(run.next_retry, conn.expiry);
}

// ngtcp2 refused what came: the server closed the connection (CONNECTION_CLOSE, counted by
// its code), reset it statelessly, or broke QUIC or HTTP/3.
void h3_on_read_error(H3Run& run, H3Conn& conn, int rv) {
  if (conn.stateless_reset) {
    ++run.out.closes["stateless reset"];
    ++run.out.server_closed;
    return h3_lose(run, conn, "closed");
  }
  if (rv == NGTCP2_ERR_DRAINING || rv == NGTCP2_ERR_CLOSING) {
    ngtcp2_connection_close_error error{};
    ngtcp2_conn_get_connection_close_error(conn.quic, &error);
    const bool application = error.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION;
    ++run.out.closes[h3_error_name(error.error_code, application)];
    ++run.out.server_closed;
    return h3_lose(run, conn, "closed");
  }
  if (conn.phase == H3Phase::handshaking) return run.link_failed(conn, "handshake-failed");
  h3_lose(run, conn, "protocol");
}

}  // namespace

std::uint64_t h3_quic_now() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
          .count());
}

ngtcp2_path h3_path_of(H3Conn& conn) {
  return {{reinterpret_cast<sockaddr*>(&conn.local), conn.local_size},
          {reinterpret_cast<sockaddr*>(&conn.remote), conn.remote_size},
          nullptr};
}

void h3_mark_dirty(H3Run& run, H3Conn& conn) {
  if (conn.dirty) return;
  conn.dirty = true;
  run.dirty.push_back(&conn);
}

void H3Run::ready(Link& link) {
  auto& conn = static_cast<H3Conn&>(link);
  for (int round = 0; round < kReadRounds && conn.quic != nullptr; ++round) {
    const SocketIo read = read_some(conn.fd, nullptr, reinterpret_cast<char*>(buffer.data()),
                                    buffer.size(), read_at);
    if (read.ec == asio::error::would_block) break;
    // ICMP port unreachable on a connected UDP socket: nobody listens there (any more).
    if (read.ec) {
      if (conn.phase == H3Phase::handshaking) return link_failed(conn, "connect-failed");
      return h3_lose(*this, conn, io_error_kind(read.ec));
    }
    ++out.datagrams.received;
    out.datagrams.bytes_received += read.bytes;
    const ngtcp2_path path = h3_path_of(conn);
    const ngtcp2_pkt_info info{};
    const int rv = ngtcp2_conn_read_pkt(conn.quic, &path, &info, buffer.data(), read.bytes,
                                        h3_quic_now());
    if (rv != 0) return h3_on_read_error(*this, conn, rv);
  }
  if (conn.quic != nullptr) h3_mark_dirty(*this, conn);  // acks, requests, a retirement
}

void h3_write(H3Run& run, H3Conn& conn) {
  conn.dirty = false;
  if (conn.quic == nullptr) return;
  std::array<std::uint8_t, kH3MaxDatagram> out;
  ngtcp2_pkt_info info{};
  // At most kWriteRounds datagrams (the rest go at the next expiry). A packet ngtcp2 is still
  // filling (NGTCP2_ERR_WRITE_MORE, or a stream it cannot take more of) is not counted: it is
  // always finished and sent before the loop ends (ngtcp2 refuses any other call meanwhile),
  // and each such turn gives it a stream's data or takes a stream off nghttp3's list.
  for (int sent = 0; sent < kWriteRounds;) {
    std::int64_t id = -1;
    int fin = 0;
    std::array<nghttp3_vec, 16> vec;
    nghttp3_ssize count = 0;
    if (conn.http != nullptr && ngtcp2_conn_get_max_data_left(conn.quic) > 0) {
      count = nghttp3_conn_writev_stream(conn.http, &id, &fin, vec.data(), vec.size());
      if (count < 0) return h3_lose(run, conn, "protocol");
    }
    ngtcp2_ssize written = -1;
    std::uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
    if (fin != 0) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
    ngtcp2_path_storage storage;
    ngtcp2_path_storage_zero(&storage);
    const ngtcp2_ssize n = ngtcp2_conn_writev_stream(
        conn.quic, &storage.path, &info, out.data(), out.size(), &written, flags, id,
        reinterpret_cast<const ngtcp2_vec*>(vec.data()), static_cast<std::size_t>(count),
        h3_quic_now());
    if (n == NGTCP2_ERR_WRITE_MORE) {
      if (nghttp3_conn_add_write_offset(conn.http, id, static_cast<std::size_t>(written)) != 0) {
        return h3_lose(run, conn, "protocol");
      }
      continue;
    }
    if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
      nghttp3_conn_block_stream(conn.http, id);
      continue;
    }
    if (n == NGTCP2_ERR_STREAM_SHUT_WR || n == NGTCP2_ERR_STREAM_NOT_FOUND) {
      nghttp3_conn_shutdown_stream_write(conn.http, id);
      continue;
    }
    if (n < 0) return h3_lose(run, conn, "protocol");
    if (written >= 0 && id >= 0 &&
        nghttp3_conn_add_write_offset(conn.http, id, static_cast<std::size_t>(written)) != 0) {
      return h3_lose(run, conn, "protocol");
    }
    if (n == 0) break;
    // A datagram the socket does not take now is lost, as any may be: QUIC sends it again.
    if (::send(conn.fd, out.data(), static_cast<std::size_t>(n), MSG_NOSIGNAL) < 0) {
      if (errno == ECONNREFUSED) return h3_lose(run, conn, "refused");
    } else {
      ++run.out.datagrams.sent;
      run.out.datagrams.bytes_sent += static_cast<std::size_t>(n);
    }
    ++sent;
  }
  h3_arm_expiry(run, conn);
  h3_retire_if_done(run, conn);
}

// ngtcp2's timers (loss recovery, delayed acks, idle, the handshake's own timeout).
void h3_expire(H3Run& run, H3Conn& conn, Clock::time_point now) {
  if (conn.quic == nullptr || conn.expiry > now) return;
  const int rv = ngtcp2_conn_handle_expiry(conn.quic, h3_quic_now());
  if (rv == NGTCP2_ERR_IDLE_CLOSE) {
    // Idle past the smaller of the two sides' idle timeouts: the server forgot it too. A
    // request sent in the last moment before (the server may have forgotten the connection a
    // little earlier than the client did) had no answer begun: it goes again, as a browser's
    // would; one whose answer had begun fails.
    ++run.out.closes["idle timeout"];
    return h3_lose(run, conn, "idle-closed", /*again_unanswered=*/true);
  }
  if (rv != 0) {
    if (conn.phase == H3Phase::handshaking) return run.link_failed(conn, "handshake-failed");
    return h3_lose(run, conn, "protocol");
  }
  h3_mark_dirty(run, conn);
}

void h3_close(H3Run& run, H3Conn& conn) {
  if (conn.http != nullptr) nghttp3_conn_del(conn.http);
  if (conn.quic != nullptr) ngtcp2_conn_del(conn.quic);
  if (conn.session != nullptr) gnutls_deinit(conn.session);
  conn.http = nullptr;
  conn.quic = nullptr;
  conn.session = nullptr;
  run.close_link(conn);
  conn.expiry = kNever;
  conn.deadline = kNever;
  conn.replacing = false;
  conn.goaway = false;
  conn.phase = H3Phase::closed;
}

void h3_say_goodbye(H3Run& run, H3Conn& conn) {
  if (conn.quic != nullptr && conn.phase != H3Phase::handshaking &&
      !ngtcp2_conn_is_in_closing_period(conn.quic) && !ngtcp2_conn_is_in_draining_period(conn.quic)) {
    std::array<std::uint8_t, kH3MaxDatagram> out;
    ngtcp2_path_storage storage;
    ngtcp2_path_storage_zero(&storage);
    ngtcp2_pkt_info info{};
    ngtcp2_connection_close_error error;
    ngtcp2_connection_close_error_default(&error);
    ngtcp2_connection_close_error_set_application_error(&error, kNoError, nullptr, 0);
    const ngtcp2_ssize n = ngtcp2_conn_write_connection_close(
        conn.quic, &storage.path, &info, out.data(), out.size(), &error, h3_quic_now());
    if (n > 0 && ::send(conn.fd, out.data(), static_cast<std::size_t>(n), MSG_NOSIGNAL) > 0) {
      ++run.out.datagrams.sent;
      run.out.datagrams.bytes_sent += static_cast<std::size_t>(n);
    }
  }
  h3_close(run, conn);
}

void h3_lose(H3Run& run, H3Conn& conn, const char* kind, bool again_unanswered) {
  // A copy: dropping a stream reorders the connection's list.
  const std::vector<H3Stream*> streams = conn.streams;
  for (H3Stream* stream : streams) {
    if (conn.fresh && stream->id < 0) continue;  // not sent yet: it waits for a reconnect
    const bool unserved = conn.goaway && stream->id >= conn.goaway_id;
    if (unserved || (again_unanswered && stream->status == 0)) {
      run.detach_stream(*stream);
      if (conn.fresh) {  // again on its own connection, opened anew
        stream->conn = &conn;
        stream->slot = 0;
        conn.streams.push_back(stream);
      } else {  // again on another connection
        run.again.push_back(stream);
      }
      continue;
    }
    ++run.out.errors[kind];
    ++run.second_of(stream->ticket.due).failed;
    run.drop_stream(*stream);
  }
  h3_close(run, conn);
  if (conn.fresh && !conn.streams.empty()) return run.reopen_at(conn, Clock::now());
  if (!conn.fresh) run.reopen_at(conn, Clock::now());  // opened again when wanted
}

void h3_retire_if_done(H3Run& run, H3Conn& conn) {
  if (conn.phase != H3Phase::draining || !conn.streams.empty()) return;
  if (conn.replacing) ++run.out.replaced;
  if (conn.fresh) ++run.out.fresh_closed;
  h3_say_goodbye(run, conn);
  if (conn.fresh) return;
  run.reopen_at(conn, Clock::now());
}

void H3Run::opened(Link&) {}

void H3Run::open_failed(Link& link) {
  auto& conn = static_cast<H3Conn&>(link);
  h3_close(*this, conn);
  reopen_at(conn, Clock::now() + kConnectRetry);
}

void H3Run::expired(Link& link) { link_failed(link, "handshake-failed"); }

}  // namespace loiter::clients::load_detail
