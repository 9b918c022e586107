// The HTTP/3 exchange's QUIC connections (h3_load_run.hpp): each on a connected UDP socket of
// its own in the engine's epoll set, ngtcp2 (0.12) with GnuTLS (TLS 1.3, ALPN "h3", no
// certificate check, one credentials object for the whole pool) beneath nghttp3. Datagrams
// are read one at a time into ngtcp2 (each timed by the kernel's receive time, as cleartext
// TCP answers are), packets written as ngtcp2 and nghttp3 have them, ngtcp2's timer watched
// by the engine's wakes. A connection ends by the server's CONNECTION_CLOSE (counted by its
// code in LoadResult::closes), a stateless reset, its idle timeout, or the client's own close.
#include <fmt/format.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "h3_load_run.hpp"
#include "load_socket.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/quic/crypto_callbacks.hpp"

namespace loiter::clients::load_detail {

namespace {

// The largest UDP payload either side sends (the client's max_udp_payload_size).
constexpr std::size_t kMaxDatagram = 1452;
constexpr int kReadRounds = 256;     // datagrams a wake reads at most from one connection
constexpr int kWriteRounds = 64;     // datagrams a flush writes at most on one connection
// Flow control: each stream's window as HTTP/2's (h2_load_session.cpp says why 64 KiB), the
// connection's generous, both opened again as the client reads.
constexpr std::uint64_t kStreamWindow = 64 * 1024;
constexpr std::uint64_t kConnectionWindow = 16ULL << 20;
// The client's idle timeout: longer than any request's, so a pool connection is ended for
// idleness by the server's own, if at all (then it is opened again when needed).
constexpr std::uint64_t kIdleTimeout = 30 * NGTCP2_SECONDS;
constexpr std::uint64_t kNoError = 0x0100;  // H3_NO_ERROR

std::uint64_t h3_quic_now() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
          .count());
}

Clock::time_point h3_quic_time(std::uint64_t ns) {
  if (ns == UINT64_MAX) return kNever;
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(Duration(ns)));
}

ngtcp2_path h3_path_of(H3Conn& conn) {
  return {{reinterpret_cast<sockaddr*>(&conn.local), conn.local_size},
          {reinterpret_cast<sockaddr*>(&conn.remote), conn.remote_size},
          nullptr};
}

ngtcp2_conn* h3_get_conn(ngtcp2_crypto_conn_ref* ref) {
  return static_cast<H3Conn*>(ref->user_data)->quic;
}

int h3_handshake_completed(ngtcp2_conn*, void* user_data) {
  H3Conn& conn = h3_conn_of(user_data);
  H3Run& run = *conn.run;
  if (!h3_start_session(run, conn)) return NGTCP2_ERR_CALLBACK_FAILURE;
  ++run.out.connections_opened;
  conn.phase = conn.fresh ? H3Phase::draining : H3Phase::ready;
  conn.deadline = kNever;
  conn.opened_streams = 0;
  if (conn.fresh && !conn.streams.empty()) h3_submit(run, conn, *conn.streams[0]);
  return 0;
}

int h3_recv_stream_data(ngtcp2_conn*, std::uint32_t flags, std::int64_t id, std::uint64_t,
                     const std::uint8_t* data, std::size_t size, void* user_data, void*) {
  const bool fin = (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0;
  return h3_read_stream(h3_conn_of(user_data), id, data, size, fin) ? 0
                                                                  : NGTCP2_ERR_CALLBACK_FAILURE;
}

int h3_recv_stateless_reset(ngtcp2_conn*, const ngtcp2_pkt_stateless_reset*, void* user_data) {
  h3_conn_of(user_data).stateless_reset = true;
  return 0;
}

void h3_add_socket(H3Run& run, H3Conn& conn) {
  const auto& server = run.options.server;
  const int fd =
      ::socket(server.protocol().family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
  if (fd < 0) return;
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
  const auto source = source_for(server, run.options.source_offset + run.out.connections_opened,
                                 run.options.source_block);
  epoll_event event{.events = EPOLLIN | EPOLLET, .data = {.fd = fd}};
  conn.local_size = sizeof conn.local;
  const bool ok = !bind_source(fd, server, source) &&
                  ::connect(fd, server.data(), static_cast<socklen_t>(server.size())) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&conn.local), &conn.local_size) ==
                      0 &&
                  ::epoll_ctl(run.epoll_fd, EPOLL_CTL_ADD, fd, &event) == 0;
  if (!ok) {
    ::close(fd);
    return;
  }
  std::memcpy(&conn.remote, server.data(), server.size());
  conn.remote_size = static_cast<socklen_t>(server.size());
  conn.fd = fd;
}

bool h3_new_session(H3Run& run, H3Conn& conn) {
  if (gnutls_init(&conn.session, GNUTLS_CLIENT) != 0) return false;
  // QUIC is TLS 1.3 only; no middlebox compatibility mode (RFC 9001 8.4). No certificate
  // check: the credentials carry no trust store (a test server's own certificate).
  if (gnutls_priority_set_direct(
          conn.session, "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE", nullptr) != 0 ||
      ngtcp2_crypto_gnutls_configure_client_session(conn.session) != 0 ||
      gnutls_credentials_set(conn.session, GNUTLS_CRD_CERTIFICATE, run.credentials) != 0) {
    return false;
  }
  conn.ref.get_conn = h3_get_conn;
  conn.ref.user_data = &conn;
  gnutls_session_set_ptr(conn.session, &conn.ref);
  static constexpr char kAlpn[] = "h3";
  gnutls_datum_t alpn{.data = reinterpret_cast<unsigned char*>(const_cast<char*>(kAlpn)),
                      .size = 2};
  gnutls_alpn_set_protocols(conn.session, &alpn, 1, GNUTLS_ALPN_MANDATORY);
  const std::string& name = run.options.server_name;
  if (!name.empty()) gnutls_server_name_set(conn.session, GNUTLS_NAME_DNS, name.data(), name.size());
  return true;
}

bool h3_new_quic(H3Run& run, H3Conn& conn) {
  auto callbacks = quic::crypto_callbacks(quic::Side::client);
  callbacks.handshake_completed = h3_handshake_completed;
  callbacks.recv_stream_data = h3_recv_stream_data;
  callbacks.recv_stateless_reset = h3_recv_stateless_reset;
  h3_add_stream_callbacks(callbacks);
  ngtcp2_cid dcid, scid;
  quic::random_client_ids(dcid, scid);
  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = h3_quic_now();
  settings.handshake_timeout = static_cast<std::uint64_t>(run.options.request_timeout.count());
  settings.max_tx_udp_payload_size = kMaxDatagram;
  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  params.initial_max_stream_data_bidi_local = kStreamWindow;
  params.initial_max_stream_data_bidi_remote = kStreamWindow;
  params.initial_max_stream_data_uni = kStreamWindow;
  params.initial_max_data = kConnectionWindow;
  params.initial_max_streams_bidi = 0;  // the server opens none (RFC 9114 6.1)
  params.initial_max_streams_uni = 16;
  params.max_idle_timeout = kIdleTimeout;
  params.active_connection_id_limit = 4;
  params.max_udp_payload_size = kMaxDatagram;
  const ngtcp2_path path = h3_path_of(conn);
  if (ngtcp2_conn_client_new(&conn.quic, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks,
                             &settings, &params, nullptr, &conn) != 0) {
    return false;
  }
  ngtcp2_conn_set_tls_native_handle(conn.quic, conn.session);
  return true;
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

bool h3_setup(H3Run& run) {
  if (gnutls_certificate_allocate_credentials(&run.credentials) != 0) return false;
  const auto& o = run.options;
  run.authority = fmt::format("{}:{}", o.server.address().to_string(), o.server.port());
  run.content_length = std::to_string(o.body.size());
  const auto field = [](std::string_view name, const std::string& value) {
    return nghttp3_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                      reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())),
                      name.size(), value.size(),
                      NGHTTP3_NV_FLAG_NO_COPY_NAME | NGHTTP3_NV_FLAG_NO_COPY_VALUE};
  };
  static const std::string kHttps = "https";
  for (auto* fields : {&run.headers, &run.abort_headers}) {
    fields->push_back(field(":method", o.method));
    fields->push_back(field(":scheme", kHttps));
    fields->push_back(field(":authority", run.authority));
  }
  run.headers.push_back(field(":path", o.path));
  run.abort_headers.push_back(field(":path", o.churn.abort_path.empty() ? o.path
                                                                        : o.churn.abort_path));
  if (!o.body.empty()) {
    run.headers.push_back(field("content-length", run.content_length));
    run.abort_headers.push_back(field("content-length", run.content_length));
  }
  return true;
}

void h3_open(H3Run& run, H3Conn& conn) {
  conn.retry_at = kNever;
  h3_add_socket(run, conn);
  if (conn.fd < 0) return run.link_failed(conn, "connect-failed");
  run.owner_of(conn.fd) = &conn;
  // The socket is "connected" at once (UDP); the handshake is the opening, by the deadline.
  conn.state = LinkState::open;
  conn.phase = H3Phase::handshaking;
  conn.deadline = Clock::now() + run.options.request_timeout;
  conn.goaway = false;
  conn.stateless_reset = false;
  if (!h3_new_session(run, conn) || !h3_new_quic(run, conn)) {
    return run.link_failed(conn, "handshake-failed");
  }
  h3_mark_dirty(run, conn);
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
  std::array<std::uint8_t, kMaxDatagram> out;
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
    std::array<std::uint8_t, kMaxDatagram> out;
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
