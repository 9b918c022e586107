// The HTTP/3 exchange's QUIC connections opened (h3_load_run.hpp): the pool's one GnuTLS
// credentials object and the request's fields made once (h3_setup); each connection a
// connected UDP socket of its own in the engine's epoll set, with ngtcp2 (0.12: TLS 1.3,
// ALPN "h3", no certificate check) and nghttp3 over it, its handshake the opening, by the
// request timeout (h3_open). Its packets are h3_load_quic.cpp's.
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

// Flow control: each stream's window as HTTP/2's (h2_load_session.cpp says why 64 KiB), the
// connection's generous, both opened again as the client reads.
constexpr std::uint64_t kStreamWindow = 64 * 1024;
constexpr std::uint64_t kConnectionWindow = 16ULL << 20;
// The client's idle timeout: longer than any request's, so a pool connection is ended for
// idleness by the server's own, if at all (then it is opened again when needed).
constexpr std::uint64_t kIdleTimeout = 30 * NGTCP2_SECONDS;

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
  settings.max_tx_udp_payload_size = kH3MaxDatagram;
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
  params.max_udp_payload_size = kH3MaxDatagram;
  const ngtcp2_path path = h3_path_of(conn);
  if (ngtcp2_conn_client_new(&conn.quic, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks,
                             &settings, &params, nullptr, &conn) != 0) {
    return false;
  }
  ngtcp2_conn_set_tls_native_handle(conn.quic, conn.session);
  return true;
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

}  // namespace loiter::clients::load_detail
