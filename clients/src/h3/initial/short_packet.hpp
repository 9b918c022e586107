// QUIC v1 1-RTT packets with the short header (RFC 9000 17.3.1), protected and opened as
// RFC 9001 5 says: the h3 floods' own packets once ngtcp2 handed the connection over, and the
// server's read back. Key phase 0 throughout (the floods never update keys; a server that
// does is not read after it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "h3/initial/packet_protection.hpp"

namespace loiter::clients::h3init {

struct ShortHeader {
  Bytes dcid;
  std::uint64_t packet_number = 0;
  std::size_t packet_number_length = 4;  // 1 to 4 bytes on the wire
  bool key_phase = false;
};

// The protected packet. A payload too short to leave header protection its 16-byte sample
// is padded with PADDING frames first.
Bytes protect_short(const PacketKeys& keys, const ShortHeader& header,
                    std::span<const std::uint8_t> payload);

struct OpenedShort {
  std::uint64_t packet_number = 0;
  bool key_phase = false;
  Bytes payload;  // the plaintext frames
};

// Opens a short-header packet addressed with a connection ID of `dcid_length` bytes;
// `largest` is the largest packet number opened so far (the truncated number is decoded
// near it, RFC 9000 A.3). nullopt: not a short header, or it did not open with these keys.
// Its fixed bit may be either (RFC 9287's greasing).
std::optional<OpenedShort> open_short(const PacketKeys& keys, std::span<const std::uint8_t> packet,
                                      std::size_t dcid_length, std::uint64_t largest);

// RFC 9000 A.3: the full packet number from its `bits` low bits, nearest to largest + 1.
std::uint64_t decode_packet_number(std::uint64_t largest, std::uint64_t truncated,
                                   std::size_t bits);

}  // namespace loiter::clients::h3init
