// A flood's hand-over (QuicConnection::HandOver): what loiter's own 1-RTT packets need of the
// connection ngtcp2 made, taken once the server confirmed the handshake, after which ngtcp2
// is not asked again. The server's unidirectional streams are kept as they come until then
// (its control stream's SETTINGS say what its QPACK allows).
#include <gnutls/gnutls.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include <algorithm>

#include "quic_clock.hpp"
#include "quic_connection.hpp"

namespace loiter::clients::h3 {

using namespace quic_clock;

namespace hand_over_detail {

// Every TLS 1.3 stack implements AES-128-GCM (RFC 8446 9.1); ChaCha20-Poly1305 is the other
// suite the floods' packet protection has. No middlebox compatibility mode (RFC 9001 8.4).
constexpr char kFloodPriority[] =
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:+CHACHA20-POLY1305:"
    "%DISABLE_TLS13_COMPAT_MODE";


}  // namespace hand_over_detail

// GnuTLS's key log: the application traffic secrets a flood's own packets are keyed with.
// The session's pointer is the connection's ngtcp2_crypto_conn_ref (set_tls).
struct KeyLog {
  static int log(gnutls_session_t session, const char* label, const gnutls_datum_t* secret) {
    auto* ref = static_cast<ngtcp2_crypto_conn_ref*>(gnutls_session_get_ptr(session));
    if (ref == nullptr || secret == nullptr) return 0;
    auto& c = *static_cast<QuicConnection*>(ref->user_data);
    const std::string_view name(label);
    std::vector<std::uint8_t> bytes(secret->data, secret->data + secret->size);
    if (name == "CLIENT_TRAFFIC_SECRET_0") c.client_secret_ = std::move(bytes);
    if (name == "SERVER_TRAFFIC_SECRET_0") c.server_secret_ = std::move(bytes);
    return 0;
  }
};

int QuicConnection::set_hand_over_tls(void* session) {
  auto* tls = static_cast<gnutls_session_t>(session);
  gnutls_session_set_keylog_function(tls, &KeyLog::log);
  return gnutls_priority_set_direct(tls, hand_over_detail::kFloodPriority, nullptr);
}

void QuicConnection::keep_server_stream(std::int64_t id, std::uint64_t offset,
                                        const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kKept = 4096;  // a SETTINGS frame is a few dozen bytes
  auto it = std::ranges::find(server_streams_, id, &std::pair<std::int64_t, std::string>::first);
  if (it == server_streams_.end()) {
    server_streams_.emplace_back(id, std::string());
    it = server_streams_.end() - 1;
  }
  std::string& bytes = it->second;
  // In order only (a stream's data comes in order on loopback; what does not is dropped).
  if (offset > bytes.size() || offset + size <= bytes.size() || bytes.size() >= kKept) return;
  const std::size_t skip = bytes.size() - static_cast<std::size_t>(offset);
  bytes.append(reinterpret_cast<const char*>(data) + skip,
               std::min(size - skip, kKept - bytes.size()));
}

void QuicConnection::hand_over() {
  if (handed_over_ || ended_) return;
  auto* conn = quic(conn_);
  HandOver h;
  h.client_secret = client_secret_;
  h.server_secret = server_secret_;
  h.chacha = chacha_;
  if (h.client_secret.empty() || h.server_secret.empty()) {
    end(Ending::reset, Clock::now(), "the handshake's traffic secrets were not logged");
    return;
  }
  const ngtcp2_cid* dcid = ngtcp2_conn_get_dcid(conn);
  h.dcid.assign(dcid->data, dcid->data + dcid->datalen);
  std::vector<ngtcp2_cid> scids(ngtcp2_conn_get_num_scid(conn));
  ngtcp2_conn_get_scid(conn, scids.data());
  h.scid_length = scids.empty() ? 0 : scids.front().datalen;
  h.scids_issued = scids.size();
  // ngtcp2 numbers each space's packets from 0, one a packet, and a datagram carries at most
  // one packet of each space: none of its 1-RTT packets had a number past the datagrams sent.
  h.next_packet_number = h3().datagrams_sent + 1;
  h.streams_bidi = ngtcp2_conn_get_streams_bidi_left(conn);
  h.max_data = ngtcp2_conn_get_max_data_left(conn);
  if (const auto* params = ngtcp2_conn_get_remote_transport_params(conn)) {
    h.stream_window = params->initial_max_stream_data_bidi_remote;
    h.uni_window = params->initial_max_stream_data_uni;
    h.streams_uni = params->initial_max_streams_uni;
    if (params->stateless_reset_token_present) {
      std::array<std::uint8_t, 16> token{};
      std::copy_n(params->stateless_reset_token, token.size(), token.begin());
      h.reset_token = token;
    }
  }
  h.server_streams = std::move(server_streams_);
  handed_over_ = true;
  expiry_.cancel();
  deadline_.expires_at(record_.connect_start + options_->fleet.patience);
  deadline_.async_wait([self = shared_from_this()](boost::system::error_code e) {
    if (!e) self->on_deadline();
  });
  on_handed_over(std::move(h));
}

}  // namespace loiter::clients::h3
