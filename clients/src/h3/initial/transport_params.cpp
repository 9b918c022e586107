#include "h3/initial/transport_params.hpp"

#include <stdexcept>

namespace loiter::clients::h3init {

void put_varint(Bytes& out, std::uint64_t value) {
  if (value < (1ULL << 6)) {
    out.push_back(static_cast<std::uint8_t>(value));
  } else if (value < (1ULL << 14)) {
    put_varint2(out, value);
  } else if (value < (1ULL << 30)) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      const auto byte = static_cast<std::uint8_t>(value >> shift);
      out.push_back(shift == 24 ? static_cast<std::uint8_t>(byte | 0x80) : byte);
    }
  } else if (value < (1ULL << 62)) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      const auto byte = static_cast<std::uint8_t>(value >> shift);
      out.push_back(shift == 56 ? static_cast<std::uint8_t>(byte | 0xc0) : byte);
    }
  } else {
    throw std::invalid_argument("a QUIC varint holds less than 2^62");
  }
}

void put_varint2(Bytes& out, std::uint64_t value) {
  if (value >= (1ULL << 14)) throw std::invalid_argument("a two-byte varint holds < 2^14");
  out.push_back(static_cast<std::uint8_t>(0x40 | (value >> 8)));
  out.push_back(static_cast<std::uint8_t>(value));
}

std::optional<std::uint64_t> get_varint(std::span<const std::uint8_t> in, std::size_t& at) {
  if (at >= in.size()) return std::nullopt;
  const std::size_t length = std::size_t{1} << (in[at] >> 6);
  if (in.size() - at < length) return std::nullopt;
  std::uint64_t value = in[at] & 0x3fU;
  for (std::size_t i = 1; i < length; ++i) value = (value << 8) | in[at + i];
  at += length;
  return value;
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
