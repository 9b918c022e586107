#include "h3/initial/short_packet.hpp"

#include <algorithm>

namespace loiter::clients::h3init {

Bytes protect_short(const PacketKeys& keys, const ShortHeader& header,
                    std::span<const std::uint8_t> payload) {
  const std::size_t pn_length = std::clamp<std::size_t>(header.packet_number_length, 1, 4);
  Bytes head;
  head.push_back(static_cast<std::uint8_t>(0x40 | (header.key_phase ? 0x04 : 0) | (pn_length - 1)));
  head.insert(head.end(), header.dcid.begin(), header.dcid.end());
  const std::size_t pn_offset = head.size();
  for (std::size_t i = pn_length; i-- > 0;) {
    head.push_back(static_cast<std::uint8_t>(header.packet_number >> (8 * i)));
  }
  // The sample starts 4 bytes after the packet number's first: the packet number and the
  // ciphertext (payload and 16-byte tag) must reach 4 + 16 bytes past it.
  Bytes plain(payload.begin(), payload.end());
  if (plain.size() + pn_length < 4) plain.resize(4 - pn_length, 0x00);
  Bytes packet = head;
  const Bytes sealed = aead_seal(keys, header.packet_number, head, plain);
  packet.insert(packet.end(), sealed.begin(), sealed.end());
  const auto mask = protection_mask(
      keys, std::span<const std::uint8_t>(packet).subspan(pn_offset + 4, kHpSampleSize));
  packet[0] = static_cast<std::uint8_t>(packet[0] ^ (mask[0] & 0x1f));
  for (std::size_t i = 0; i < pn_length; ++i) {
    packet[pn_offset + i] = static_cast<std::uint8_t>(packet[pn_offset + i] ^ mask[1 + i]);
  }
  return packet;
}

std::uint64_t decode_packet_number(std::uint64_t largest, std::uint64_t truncated,
                                   std::size_t bits) {
  const std::uint64_t expected = largest + 1;
  const std::uint64_t window = std::uint64_t{1} << bits;
  const std::uint64_t half = window / 2;
  const std::uint64_t mask = window - 1;
  const std::uint64_t candidate = (expected & ~mask) | truncated;
  if (candidate + half <= expected && candidate < (std::uint64_t{1} << 62) - window) {
    return candidate + window;
  }
  if (candidate > expected + half && candidate >= window) return candidate - window;
  return candidate;
}

std::optional<OpenedShort> open_short(const PacketKeys& keys, std::span<const std::uint8_t> packet,
                                      std::size_t dcid_length, std::uint64_t largest) {
  const std::size_t pn_offset = 1 + dcid_length;
  // The fixed bit is not checked: a peer may grease it (RFC 9287), as ngtcp2 lets servers
  // do for its clients.
  if (packet.empty() || (packet[0] & 0x80) != 0 || packet.size() < pn_offset + 4 + kHpSampleSize) {
    return std::nullopt;
  }
  const auto mask = protection_mask(keys, packet.subspan(pn_offset + 4, kHpSampleSize));
  Bytes header(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(pn_offset));
  header[0] = static_cast<std::uint8_t>(header[0] ^ (mask[0] & 0x1f));
  const std::size_t pn_length = (header[0] & 0x03) + 1;
  std::uint64_t truncated = 0;
  for (std::size_t i = 0; i < pn_length; ++i) {
    const auto byte = static_cast<std::uint8_t>(packet[pn_offset + i] ^ mask[1 + i]);
    header.push_back(byte);
    truncated = (truncated << 8) | byte;
  }
  const std::uint64_t number = decode_packet_number(largest, truncated, 8 * pn_length);
  auto plain = aead_open(keys, number, header, packet.subspan(pn_offset + pn_length));
  if (!plain) return std::nullopt;
  return OpenedShort{
      .packet_number = number, .key_phase = (header[0] & 0x04) != 0, .payload = std::move(*plain)};
}

}  // namespace loiter::clients::h3init
