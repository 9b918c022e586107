#include "h3/initial/transport_params.hpp"

#include <stdexcept>

#include "loiter/quic/frames.hpp"

namespace loiter::clients::h3init {

// One varint codec (loiter/quic/frames.hpp), with the range this room refuses rather than
// clamps.
void put_varint(Bytes& out, std::uint64_t value) {
  if (value > quic::kMaxVarint) throw std::invalid_argument("a QUIC varint holds less than 2^62");
  quic::put_varint(out, value);
}

void put_varint2(Bytes& out, std::uint64_t value) {
  if (value >= (1ULL << 14)) throw std::invalid_argument("a two-byte varint holds < 2^14");
  out.push_back(static_cast<std::uint8_t>(0x40 | (value >> 8)));
  out.push_back(static_cast<std::uint8_t>(value));
}

std::optional<std::uint64_t> get_varint(std::span<const std::uint8_t> in, std::size_t& at) {
  return quic::read_varint(in, at);
}

namespace {

void put_param(Bytes& out, std::uint64_t id, std::uint64_t value) {
  Bytes encoded;
  put_varint(encoded, value);
  put_varint(out, id);
  put_varint(out, encoded.size());
  out.insert(out.end(), encoded.begin(), encoded.end());
}

}  // namespace

Bytes encode(const TransportParams& params) {
  Bytes out;
  put_param(out, 0x01, params.max_idle_timeout_ms);
  put_param(out, 0x03, params.max_udp_payload_size);
  put_param(out, 0x04, params.initial_max_data);
  put_param(out, 0x05, params.initial_max_stream_data_bidi_local);
  put_param(out, 0x06, params.initial_max_stream_data_bidi_remote);
  put_param(out, 0x07, params.initial_max_stream_data_uni);
  put_param(out, 0x08, params.initial_max_streams_bidi);
  put_param(out, 0x09, params.initial_max_streams_uni);
  put_param(out, 0x0e, params.active_connection_id_limit);
  put_varint(out, 0x0f);  // initial_source_connection_id
  put_varint(out, params.initial_source_connection_id.size());
  out.insert(out.end(), params.initial_source_connection_id.begin(),
             params.initial_source_connection_id.end());
  return out;
}

}  // namespace loiter::clients::h3init
