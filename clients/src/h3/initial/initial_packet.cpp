#include "h3/initial/initial_packet.hpp"

#include <algorithm>
#include <stdexcept>

#include "h3/initial/transport_params.hpp"

namespace loiter::clients::h3init {

namespace {

constexpr std::uint32_t kQuicV1 = 1;
constexpr std::size_t kMaxConnectionId = 20;

void put_connection_id(Bytes& out, const Bytes& id) {
  if (id.size() > kMaxConnectionId) throw std::invalid_argument("connection ID over 20 bytes");
  out.push_back(static_cast<std::uint8_t>(id.size()));
  out.insert(out.end(), id.begin(), id.end());
}

// The long header's common part: where the connection IDs end; nullopt if cut short.
struct LongHeader {
  std::uint32_t version = 0;
  Bytes dcid;
  Bytes scid;
  std::size_t after_ids = 0;
};
std::optional<LongHeader> read_long_header(std::span<const std::uint8_t> in) {
  if (in.size() < 7) return std::nullopt;
  LongHeader header;
  header.version = (std::uint32_t{in[1]} << 24) | (std::uint32_t{in[2]} << 16) |
                   (std::uint32_t{in[3]} << 8) | in[4];
  std::size_t at = 5;
  for (Bytes* id : {&header.dcid, &header.scid}) {
    if (at >= in.size()) return std::nullopt;
    const std::size_t length = in[at++];
    if (length > kMaxConnectionId || in.size() - at < length) return std::nullopt;
    id->assign(in.begin() + static_cast<std::ptrdiff_t>(at),
               in.begin() + static_cast<std::ptrdiff_t>(at + length));
    at += length;
  }
  header.after_ids = at;
  return header;
}

}  // namespace

Bytes initial_header(const InitialHeader& header, std::size_t payload_size) {
  if (header.packet_number_length < 1 || header.packet_number_length > 4) {
    throw std::invalid_argument("a packet number takes 1 to 4 bytes");
  }
  Bytes out;
  // Long header, fixed bit, type Initial (0), reserved 0, packet number length - 1.
  out.push_back(static_cast<std::uint8_t>(0xc0 | (header.packet_number_length - 1)));
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<std::uint8_t>(kQuicV1 >> shift));
  }
  put_connection_id(out, header.dcid);
  put_connection_id(out, header.scid);
  put_varint(out, 0);  // no token
  put_varint2(out, header.packet_number_length + payload_size + kAeadTagSize);
  for (std::size_t i = header.packet_number_length; i-- > 0;) {
    out.push_back(static_cast<std::uint8_t>(header.packet_number >> (8 * i)));
  }
  return out;
}

Bytes protect_initial(const InitialKeys& keys, const InitialHeader& header,
                      std::span<const std::uint8_t> payload) {
  Bytes packet = initial_header(header, payload.size());
  const std::size_t pn_offset = packet.size() - header.packet_number_length;
  const Bytes sealed = seal(keys, header.packet_number, packet, payload);
  packet.insert(packet.end(), sealed.begin(), sealed.end());
  // The sample starts 4 bytes past the packet number's start, whatever its length.
  if (packet.size() < pn_offset + 4 + kHpSampleSize) {
    throw std::invalid_argument("an Initial too short to sample for header protection");
  }
  const auto mask = header_mask(keys, std::span(packet).subspan(pn_offset + 4, kHpSampleSize));
  packet[0] = static_cast<std::uint8_t>(packet[0] ^ (mask[0] & 0x0f));
  for (std::size_t i = 0; i < header.packet_number_length; ++i) {
    packet[pn_offset + i] = static_cast<std::uint8_t>(packet[pn_offset + i] ^ mask[1 + i]);
  }
  return packet;
}

Bytes padded_payload(const InitialHeader& header, Bytes frames, std::size_t datagram) {
  const std::size_t overhead = initial_header(header, 0).size() + kAeadTagSize;
  if (overhead + frames.size() > datagram) {
    throw std::invalid_argument("the frames do not fit in one Initial of that size");
  }
  frames.resize(datagram - overhead, 0x00);  // PADDING frames are zero bytes
  return frames;
}

void put_crypto_frame(Bytes& out, std::uint64_t offset, std::span<const std::uint8_t> data) {
  put_varint(out, 0x06);
  put_varint(out, offset);
  put_varint(out, data.size());
  out.insert(out.end(), data.begin(), data.end());
}

void put_ping_frame(Bytes& out) { put_varint(out, 0x01); }

bool InitialFrames::acknowledges(std::uint64_t packet_number) const {
  return std::any_of(acked.begin(), acked.end(), [packet_number](const AckRange& range) {
    return range.smallest <= packet_number && packet_number <= range.largest;
  });
}

std::optional<OpenedInitial> open_initial(const InitialKeys& keys,
                                          std::span<const std::uint8_t> packet) {
  const auto header = read_long_header(packet);
  if (!header || (packet[0] & 0x30) != 0) return std::nullopt;
  std::size_t at = header->after_ids;
  const auto token_length = get_varint(packet, at);
  if (!token_length || packet.size() - at < *token_length) return std::nullopt;
  at += *token_length;
  const auto length = get_varint(packet, at);
  if (!length || packet.size() - at < *length) return std::nullopt;
  const std::size_t pn_offset = at;
  const std::size_t end = at + *length;
  if (end < pn_offset + 4 + kHpSampleSize) return std::nullopt;
  Bytes header_bytes(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(pn_offset));
  const auto mask = header_mask(keys, packet.subspan(pn_offset + 4, kHpSampleSize));
  header_bytes[0] = static_cast<std::uint8_t>(header_bytes[0] ^ (mask[0] & 0x0f));
  const std::size_t pn_length = (header_bytes[0] & 0x03U) + 1;
  std::uint64_t packet_number = 0;
  for (std::size_t i = 0; i < pn_length; ++i) {
    const auto byte = static_cast<std::uint8_t>(packet[pn_offset + i] ^ mask[1 + i]);
    header_bytes.push_back(byte);
    packet_number = (packet_number << 8) | byte;
  }
  // A server's Initials are few and numbered from 0: the truncated number is the whole
  // number (RFC 9000 A.3 would only matter past 2^(8 × length - 1) packets).
  auto payload = open(keys, packet_number, header_bytes,
                      packet.subspan(pn_offset + pn_length, end - pn_offset - pn_length));
  if (!payload) return std::nullopt;
  return OpenedInitial{.packet_number = packet_number,
                       .header = std::move(header_bytes),
                       .payload = std::move(*payload),
                       .size = end};
}

InitialFrames parse_frames(std::span<const std::uint8_t> payload) {
  InitialFrames frames;
  std::size_t at = 0;
  // Each frame consumes at least its type byte: at most payload.size() rounds.
  while (at < payload.size()) {
    const auto type = get_varint(payload, at);
    if (!type) break;
    if (*type == 0x00) {
      ++frames.padding;
    } else if (*type == 0x01) {
      frames.ping = true;
    } else if (*type == 0x02 || *type == 0x03) {
      const auto largest = get_varint(payload, at);
      const auto delay = get_varint(payload, at);
      const auto count = get_varint(payload, at);
      const auto first = get_varint(payload, at);
      if (!largest || !delay || !count || !first || *first > *largest) {
        frames.malformed = true;
        return frames;
      }
      frames.ack = true;
      std::uint64_t smallest = *largest - *first;
      frames.acked.push_back({smallest, *largest});
      // Every range takes at least two bytes: the count is bounded by what is left.
      for (std::uint64_t i = 0; i < *count; ++i) {
        const auto gap = get_varint(payload, at);
        const auto length = get_varint(payload, at);
        if (!gap || !length || smallest < *gap + 2 || smallest - *gap - 2 < *length) {
          frames.malformed = true;
          return frames;
        }
        const std::uint64_t high = smallest - *gap - 2;
        smallest = high - *length;
        frames.acked.push_back({smallest, high});
      }
      if (*type == 0x03) {  // ECN counts
        for (int i = 0; i < 3; ++i) {
          if (!get_varint(payload, at)) {
            frames.malformed = true;
            return frames;
          }
        }
      }
    } else if (*type == 0x06) {
      const auto offset = get_varint(payload, at);
      const auto length = get_varint(payload, at);
      if (!offset || !length || payload.size() - at < *length) {
        frames.malformed = true;
        return frames;
      }
      frames.crypto_bytes += *length;
      at += *length;
    } else if (*type == 0x1c || *type == 0x1d) {
      ConnectionClose close{.application = *type == 0x1d};
      const auto code = get_varint(payload, at);
      bool ok = code.has_value();
      if (ok && *type == 0x1c) ok = get_varint(payload, at).has_value();  // the frame type
      const auto length = ok ? get_varint(payload, at) : std::nullopt;
      if (!ok || !length || payload.size() - at < *length) {
        frames.malformed = true;
        return frames;
      }
      close.code = *code;
      const std::size_t kept = std::min<std::size_t>(*length, 64);
      close.reason.assign(payload.begin() + static_cast<std::ptrdiff_t>(at),
                          payload.begin() + static_cast<std::ptrdiff_t>(at + kept));
      at += *length;
      frames.close = std::move(close);
    } else {
      frames.malformed = true;  // not a frame an Initial may carry (RFC 9000 12.4)
      return frames;
    }
  }
  return frames;
}

std::vector<ServerPacket> read_datagram(const InitialKeys& server_keys,
                                        std::span<const std::uint8_t> datagram) {
  std::vector<ServerPacket> packets;
  std::size_t at = 0;
  // Each round consumes a whole packet of at least 7 bytes, or stops.
  while (at < datagram.size()) {
    const auto rest = datagram.subspan(at);
    ServerPacket packet;
    if ((rest[0] & 0x80) == 0) {
      packet.type = ServerPacket::Type::short_header;
      packet.size = rest.size();
      packets.push_back(std::move(packet));
      break;
    }
    const auto header = read_long_header(rest);
    if (!header) break;
    packet.dcid = header->dcid;
    packet.scid = header->scid;
    if (header->version == 0) {
      packet.type = ServerPacket::Type::version_negotiation;
      packet.size = rest.size();
      packets.push_back(std::move(packet));
      break;
    }
    const unsigned type = (rest[0] >> 4) & 0x03U;
    if (type == 3) {
      packet.type = ServerPacket::Type::retry;
      packet.size = rest.size();
      packets.push_back(std::move(packet));
      break;
    }
    if (type == 0) {
      packet.type = ServerPacket::Type::initial;
      if (auto opened = open_initial(server_keys, rest)) {
        packet.packet_number = opened->packet_number;
        packet.frames = parse_frames(opened->payload);
        packet.size = opened->size;
      }
    } else {
      packet.type = type == 1 ? ServerPacket::Type::zero_rtt : ServerPacket::Type::handshake;
    }
    if (packet.size == 0) {  // not opened, or not an Initial: delimit it by its Length
      std::size_t field = header->after_ids;
      if (type == 0) {
        const auto token_length = get_varint(rest, field);
        if (!token_length || rest.size() - field < *token_length) break;
        field += *token_length;
      }
      const auto length = get_varint(rest, field);
      if (!length || rest.size() - field < *length) break;
      packet.size = field + *length;
    }
    at += packet.size;
    packets.push_back(std::move(packet));
  }
  return packets;
}

bool looks_like_stateless_reset(std::span<const std::uint8_t> datagram,
                                std::span<const std::uint8_t> client_scid) {
  if (datagram.size() < kMinStatelessReset || (datagram[0] & 0xc0) != 0x40) return false;
  const auto dcid = datagram.subspan(1, std::min(client_scid.size(), datagram.size() - 1));
  return !std::equal(dcid.begin(), dcid.end(), client_scid.begin(), client_scid.end());
}

}  // namespace loiter::clients::h3init
