// The client's QUIC transport parameters (RFC 9000 18.2), the body of the ClientHello's
// quic_transport_parameters extension (codepoint 0x39, RFC 9001 8.2): a server refuses a
// hello without them (TRANSPORT_PARAMETER_ERROR), so even a hello never finished carries
// them. Also the variable-length integer every QUIC field uses (RFC 9000 16).
// Private to loiter::clients_h3_initial.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "h3/initial/initial_keys.hpp"

namespace loiter::clients::h3init {

// Appends `value` (< 2^62) in its shortest QUIC varint form.
void put_varint(Bytes& out, std::uint64_t value);
// Appends `value` (< 2^14) in the two-byte form, whatever its size: a Length field written
// before the value it counts is known.
void put_varint2(Bytes& out, std::uint64_t value);
// Reads one varint at `at`, advancing it; nullopt past the end.
std::optional<std::uint64_t> get_varint(std::span<const std::uint8_t> in, std::size_t& at);

// The limits the client offers: what a browser would, so the server has nothing to refuse.
struct TransportParams {
  Bytes initial_source_connection_id;  // the client's SCID (RFC 9000 7.3: must match)
  std::uint64_t max_idle_timeout_ms = 30'000;
  std::uint64_t max_udp_payload_size = 1472;
  std::uint64_t initial_max_data = 1 << 20;
  std::uint64_t initial_max_stream_data_bidi_local = 256 << 10;
  std::uint64_t initial_max_stream_data_bidi_remote = 256 << 10;
  std::uint64_t initial_max_stream_data_uni = 256 << 10;
  std::uint64_t initial_max_streams_bidi = 100;
  std::uint64_t initial_max_streams_uni = 100;
  std::uint64_t active_connection_id_limit = 2;
};

// The extension's body: each parameter as id, length, value (varints).
Bytes encode(const TransportParams& params);

}  // namespace loiter::clients::h3init
