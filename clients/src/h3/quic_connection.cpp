// QuicConnection's QUIC half, its set-up: the UDP socket, ngtcp2's connection and GnuTLS's
// session (with their callbacks), the clock ngtcp2 is fed, and the streams' bookkeeping
// (the fleet that starts connections is h3_fleet.cpp). The read / write / timer loop and how a connection ends are
// quic_packets.cpp; the HTTP/3 half is h3_session.cpp.
#include "quic_connection.hpp"

#include <fmt/format.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "loiter/clients/transport/fleet_spec.hpp"
#include "loiter/quic/crypto_callbacks.hpp"
#include "quic_clock.hpp"

namespace loiter::clients::h3 {

using namespace quic_clock;

struct ConnRef {
  ngtcp2_crypto_conn_ref ref{};
};

namespace {

constexpr std::size_t kReceiveBuffer = 2048;
// Connection-level window: generous, so only the stream windows (what the kinds hold or
// trickle) ever bound what the server may send.
constexpr std::uint64_t kConnectionWindow = 64ULL << 20;
constexpr std::uint64_t kStreamWindow = 4ULL << 20;

std::string endpoint_text(const Udp::endpoint& endpoint) {
  if (endpoint.address().is_v6()) {
    return fmt::format("[{}]:{}", endpoint.address().to_string(), endpoint.port());
  }
  return fmt::format("{}:{}", endpoint.address().to_string(), endpoint.port());
}

// What every client session shares, made once a process and never changed after: its
// certificate credentials (empty: no trust store, no check) and its priorities. Each held
// 6 KiB and 8 KiB when every connection made its own.
struct SharedTls {
  gnutls_certificate_credentials_t credentials = nullptr;
  gnutls_priority_t priority = nullptr;

  SharedTls() {
    if (gnutls_certificate_allocate_credentials(&credentials) != 0) credentials = nullptr;
    // QUIC is TLS 1.3 only; no middlebox compatibility mode (RFC 9001 8.4).
    if (gnutls_priority_init(&priority,
                             "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE",
                             nullptr) != 0) {
      priority = nullptr;
    }
  }
  SharedTls(const SharedTls&) = delete;
  SharedTls& operator=(const SharedTls&) = delete;
  ~SharedTls() {
    if (priority != nullptr) gnutls_priority_deinit(priority);
    if (credentials != nullptr) gnutls_certificate_free_credentials(credentials);
  }
};

const SharedTls& shared_tls() {
  static const SharedTls tls;  // a session keeps its own reference to the priorities
  return tls;
}

}  // namespace

// ngtcp2's and GnuTLS's callbacks, each a thunk into the connection.
struct QuicGlue {
  static QuicConnection& of(void* user_data) { return *static_cast<QuicConnection*>(user_data); }

  static ngtcp2_conn* get_conn(ngtcp2_crypto_conn_ref* ref) {
    return quic(static_cast<QuicConnection*>(ref->user_data)->conn_);
  }

  static int handshake_completed(ngtcp2_conn* conn, void* user_data) {
    auto& c = of(user_data);
    const auto now = Clock::now();
    c.handshake_done_ = true;
    c.idle_base_ = c.last_fed_;  // the packet being read: its timestamp was the last one fed
    // QUIC has no connect before its handshake: the record's "connect" is the first
    // Initial (connect_took 0), so every time in it, handshake_done too, counts from there.
    c.record_.connect_took = Duration{};
    c.h3().handshake_done = c.since_connect(now);
    c.chacha_ = gnutls_cipher_get(static_cast<gnutls_session_t>(c.session_)) ==
                GNUTLS_CIPHER_CHACHA20_POLY1305;
    gnutls_datum_t alpn{};
    if (gnutls_alpn_get_selected_protocol(static_cast<gnutls_session_t>(c.session_), &alpn) == 0) {
      c.h3().alpn.assign(reinterpret_cast<const char*>(alpn.data), alpn.size);
    }
    c.idle_timeout_ = static_cast<std::uint64_t>(c.options_->fleet.patience.count());
    if (const auto* params = ngtcp2_conn_get_remote_transport_params(conn)) {
      c.h3().idle_advertised = Duration(params->max_idle_timeout);
      // ngtcp2's idle timeout: the smaller of the two sides', a side's 0 meaning none.
      const std::uint64_t remote = params->max_idle_timeout;
      if (remote != 0 && (c.idle_timeout_ == 0 || remote < c.idle_timeout_)) {
        c.idle_timeout_ = remote;
      }
    }
    return 0;
  }

  static int handshake_confirmed(ngtcp2_conn*, void* user_data) {
    of(user_data).handshake_confirmed_ = true;
    return 0;
  }

  static int recv_stream_data(ngtcp2_conn*, std::uint32_t flags, std::int64_t id,
                              std::uint64_t offset, const std::uint8_t* data, std::size_t size,
                              void* user_data, void*) {
    auto& c = of(user_data);
    const bool fin = (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0;
    if (c.hands_over() && (id & 0x3) == 0x3) c.keep_server_stream(id, offset, data, size);
    // The server's control stream (a server-initiated unidirectional stream, type 0x00)
    // opens with its SETTINGS frame (type 0x04; RFC 9114 6.2.1).
    if ((id & 0x3) == 0x3 && offset == 0 && size >= 2 && data[0] == 0x00 && data[1] == 0x04 &&
        !c.h3().server_settings) {
      c.h3().server_settings = c.since_connect(Clock::now());
    }
    return c.h3_read(id, data, size, fin) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  // After the handshake the session is gone (release_tls): what CRYPTO data still comes (a
  // NewSessionTicket: the client never resumes) is read and dropped.
  static int recv_crypto_data(ngtcp2_conn* conn, ngtcp2_crypto_level level, std::uint64_t offset,
                              const std::uint8_t* data, std::size_t size, void* user_data) {
    if (of(user_data).session_ == nullptr) return 0;
    return ngtcp2_crypto_recv_crypto_data_cb(conn, level, offset, data, size, user_data);
  }

  static int stream_reset(ngtcp2_conn*, std::int64_t id, std::uint64_t, std::uint64_t code,
                          void* user_data, void*) {
    of(user_data).on_stream_end(id, code, /*stop_sending=*/false);
    return 0;
  }

  static int stream_stop_sending(ngtcp2_conn*, std::int64_t id, std::uint64_t code, void* user_data,
                                 void*) {
    of(user_data).on_stream_end(id, code, /*stop_sending=*/true);
    return 0;
  }

  static int recv_stateless_reset(ngtcp2_conn*, const ngtcp2_pkt_stateless_reset*,
                                  void* user_data) {
    of(user_data).stateless_reset_ = true;
    return 0;
  }
};

QuicConnection::QuicConnection(Executor executor, std::shared_ptr<const H3Options> options,
                               std::size_t index, ConnectionRecord& record, std::string_view kind,
                               Window window)
    : executor_(executor),
      options_(std::move(options)),
      index_(index),
      record_(record),
      socket_(executor),
      expiry_(executor),
      deadline_(executor),
      action_(executor),
      in_(kReceiveBuffer),
      conn_ref_(std::make_unique<ConnRef>()),
      window_(window) {
  record_.kind = kind;
  record_.h3.emplace();
}

QuicConnection::~QuicConnection() {
  close_http3();
  if (conn_ != nullptr) ngtcp2_conn_del(quic(conn_));
  if (session_ != nullptr) gnutls_deinit(static_cast<gnutls_session_t>(session_));
}

void QuicConnection::start() {
  const FleetSpec& fleet = options_->fleet;
  remote_ = Udp::endpoint(fleet.target.address(), fleet.target.port());
  boost::system::error_code ec;
  socket_.open(remote_.protocol(), ec);
  if (!ec) socket_.bind(Udp::endpoint(source_of(fleet, index_), 0), ec);
  if (!ec) socket_.connect(remote_, ec);  // only the target's datagrams come in
  if (!ec) local_ = socket_.local_endpoint(ec);
  if (ec) {
    record_.connect_start = Clock::now();
    record_.error_number = ec.value();
    end(Ending::connect_failed, record_.connect_start, ec.message());
    return;
  }
  record_.source = endpoint_text(local_);
  if (!setup_tls() || !setup_quic()) return;
  // connect_start is the first Initial's send (send_datagram sets it); the deadlines count
  // from it.
  write();
  if (ended_) return;
  deadline_.expires_at(record_.connect_start + fleet.connect_timeout);
  deadline_.async_wait([self = shared_from_this()](boost::system::error_code e) {
    if (!e) self->on_deadline();
  });
  receive();
}

bool QuicConnection::setup_tls() {
  const SharedTls& shared = shared_tls();
  if (shared.credentials == nullptr || shared.priority == nullptr) {
    fail("GnuTLS credentials or priorities could not be set up");
    return false;
  }
  gnutls_session_t session = nullptr;
  if (gnutls_init(&session, GNUTLS_CLIENT) != 0) {
    fail("gnutls_init failed");
    return false;
  }
  session_ = session;
  const int prioritised = hands_over() ? set_hand_over_tls(session)
                                       : gnutls_priority_set(session, shared.priority);
  if (prioritised != 0 ||
      ngtcp2_crypto_gnutls_configure_client_session(session) != 0 ||
      gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, shared.credentials) != 0) {
    fail("GnuTLS session setup failed");
    return false;
  }
  // No certificate check: the credentials carry no trust store and no verify function is
  // set, so GnuTLS accepts whatever certificate the server shows (a test server's own).
  conn_ref_->ref.get_conn = &QuicGlue::get_conn;
  conn_ref_->ref.user_data = this;
  gnutls_session_set_ptr(session, &conn_ref_->ref);
  static constexpr char kAlpn[] = "h3";
  gnutls_datum_t alpn{.data = reinterpret_cast<unsigned char*>(const_cast<char*>(kAlpn)),
                      .size = 2};
  gnutls_alpn_set_protocols(session, &alpn, 1, GNUTLS_ALPN_MANDATORY);
  if (!options_->server_name.empty()) {
    gnutls_server_name_set(session, GNUTLS_NAME_DNS, options_->server_name.data(),
                           options_->server_name.size());
  }
  return true;
}

bool QuicConnection::setup_quic() {
  auto callbacks = quic::crypto_callbacks(quic::Side::client);
  callbacks.handshake_completed = &QuicGlue::handshake_completed;
  callbacks.recv_crypto_data = &QuicGlue::recv_crypto_data;
  callbacks.recv_stream_data = &QuicGlue::recv_stream_data;
  callbacks.stream_reset = &QuicGlue::stream_reset;
  callbacks.stream_stop_sending = &QuicGlue::stream_stop_sending;
  callbacks.recv_stateless_reset = &QuicGlue::recv_stateless_reset;
  callbacks.handshake_confirmed = &QuicGlue::handshake_confirmed;
  add_http3_callbacks(&callbacks);

  ngtcp2_cid dcid, scid;
  quic::random_client_ids(dcid, scid);

  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = timestamp();
  settings.handshake_timeout = static_cast<std::uint64_t>(options_->fleet.connect_timeout.count());
  settings.max_tx_udp_payload_size = kMaxDatagram;

  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  params.initial_max_stream_data_bidi_local = stream_window();
  params.initial_max_stream_data_bidi_remote = kStreamWindow;
  params.initial_max_stream_data_uni = kStreamWindow;
  params.initial_max_data = kConnectionWindow;
  params.initial_max_streams_bidi = 0;  // the server opens none (RFC 9114 6.1)
  params.initial_max_streams_uni = 16;
  // The client's own idle timeout is its patience: how long the connection lives is the
  // kind's choice; what the server advertised is recorded (idle_advertised).
  params.max_idle_timeout = static_cast<std::uint64_t>(options_->fleet.patience.count());
  params.active_connection_id_limit = 4;
  params.max_udp_payload_size = kMaxDatagram;

  auto* local = const_cast<sockaddr*>(reinterpret_cast<const sockaddr*>(local_.data()));
  auto* remote = const_cast<sockaddr*>(reinterpret_cast<const sockaddr*>(remote_.data()));
  const ngtcp2_path path{{local, static_cast<ngtcp2_socklen>(local_.size())},
                         {remote, static_cast<ngtcp2_socklen>(remote_.size())},
                         nullptr};
  ngtcp2_conn* conn = nullptr;
  const int rv = ngtcp2_conn_client_new(&conn, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks,
                                        &settings, &params, nullptr, this);
  if (rv != 0) {
    fail(fmt::format("ngtcp2_conn_client_new: {}", ngtcp2_strerror(rv)));
    return false;
  }
  conn_ = conn;
  ngtcp2_conn_set_tls_native_handle(conn, session_);
  return true;
}

// Once the handshake is done the TLS session has nothing left to do: the 1-RTT keys and
// their updates live in ngtcp2 (its crypto helper derives them without the session), and
// the Finished the client sent was copied into ngtcp2's crypto stream. A held connection
// would keep ~7 KiB of session for nothing. Not from inside ngtcp2's callbacks: the session
// is in use there (on_datagram calls this after ngtcp2_conn_read_pkt returned).
void QuicConnection::release_tls() {
  if (session_ == nullptr || !handshake_done_) return;
  ngtcp2_conn_set_tls_native_handle(quic(conn_), nullptr);
  gnutls_deinit(static_cast<gnutls_session_t>(session_));
  session_ = nullptr;
}

std::uint64_t QuicConnection::stream_window() const {
  return window_ == Window::held ? options_->initial_stream_window : kStreamWindow;
}

// The clock ngtcp2 is given. ngtcp2 takes every timestamp from its caller, and its idle
// timer is min(the client's max_idle_timeout, the server's): left to itself it would close
// the connection locally (without a packet) as soon as the server's idle timeout passed,
// before h3-idle's probe could ask whether the server really forgot it. So ngtcp2 never
// sees its idle deadline pass: arm_expiry does not wake for it, and when real time has gone
// past it, the clock fed to ngtcp2 is shifted back (skew_) so that, in ngtcp2's view, about
// 1 ms passed since its last call. Everything else (RTT, PTO, the probe's three PTOs, ACK
// delays) runs on real intervals after that shift. How long a connection lives is the
// kind's own bound (its patience), not ngtcp2's.
//
// ngtcp2 0.12 does not say when its idle deadline is, so idle_floor() is a lower bound of it:
// ngtcp2 restarts its idle timer on every packet read (at the timestamp given with it) and
// on the first ack-eliciting packet sent after one; the floor counts from the last read and
// from a PING sent first after one (ping()), less a margin. A lower bound is the safe side:
// the clock is held back a little early, never late.
std::uint64_t QuicConnection::timestamp() {
  const std::uint64_t real = real_now();
  std::uint64_t fed = std::max(real - skew_, last_fed_);
  if (handshake_done_ && idle_timeout_ != 0) {
    const std::uint64_t floor = idle_floor();
    if (fed >= floor && last_fed_ < floor) {
      const std::uint64_t step = std::min<std::uint64_t>(kMillisecond, (floor - last_fed_) / 2);
      fed = last_fed_ + step;
      skew_ = real - fed;
    }
  }
  last_fed_ = fed;
  return fed;
}

std::uint64_t QuicConnection::idle_floor() const {
  constexpr std::uint64_t kMargin = 10 * kMillisecond;
  const std::uint64_t from = idle_base_ + idle_timeout_;
  return from > kMargin ? from - kMargin : 0;
}

QuicConnection::Stream* QuicConnection::stream(std::int64_t id) {
  for (auto& s : streams_) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

const Response* QuicConnection::response_of(std::int64_t id) const {
  for (const auto& s : streams_) {
    if (s.id == id && s.response) return &record_.responses[*s.response];
  }
  return nullptr;
}

Response& QuicConnection::response_for(Stream& s) {
  if (!s.response) {
    const auto now = Clock::now();
    s.response = record_.responses.size();
    record_.responses.push_back(Response{.started = since_connect(now)});
    if (!record_.first_byte) record_.first_byte = since_connect(now);
  }
  return record_.responses[*s.response];
}

void QuicConnection::on_stream_end(std::int64_t id, std::uint64_t code, bool stop_sending) {
  H3Record& h3 = this->h3();
  // Only request streams (client-initiated bidirectional): the control and QPACK streams'
  // ends are nghttp3's business (and a connection error).
  if ((id & 0x3) == 0 && h3.stream_ends.size() < H3Record::kKeptStreamEnds) {
    h3.stream_ends.push_back(H3StreamEnd{.at = since_connect(Clock::now()),
                                         .stream = id,
                                         .code = code,
                                         .stop_sending = stop_sending});
  }
  http3_stream_end(id);
  if ((id & 0x3) == 0) events_.push_back(Event{.stream = id, .complete = false});
}

}  // namespace loiter::clients::h3
