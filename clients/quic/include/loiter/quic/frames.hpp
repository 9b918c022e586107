// QUIC v1 frames (RFC 9000 12.4, 19) as bytes: variable-length integers, a walker over a
// packet's decrypted payload, and writers for the frames loiter's own 1-RTT packets carry.
// The h3 floods (clients/src/h3/flood/) write and read their packets with it after the
// handshake; the reference server's frame tap reads what a flood sent it. Header-only and
// free of any QUIC library, below both clients/ and fixtures/ (library loiter_quic).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace loiter::quic {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

// RFC 9000 16: the largest value a variable-length integer holds.
inline constexpr std::uint64_t kMaxVarint = (std::uint64_t{1} << 62) - 1;

// Appends `value` in the shortest encoding (values past kMaxVarint are clamped to it).
inline void put_varint(Bytes& out, std::uint64_t value) {
  if (value > kMaxVarint) value = kMaxVarint;
  if (value < (1U << 6)) {
    out.push_back(static_cast<std::uint8_t>(value));
  } else if (value < (1U << 14)) {
    out.push_back(static_cast<std::uint8_t>(0x40 | (value >> 8)));
    out.push_back(static_cast<std::uint8_t>(value));
  } else if (value < (std::uint64_t{1} << 30)) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      out.push_back(static_cast<std::uint8_t>((shift == 24 ? 0x80 : 0) | (value >> shift)));
    }
  } else {
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.push_back(static_cast<std::uint8_t>((shift == 56 ? 0xc0 : 0) | (value >> shift)));
    }
  }
}

// Reads a variable-length integer at `pos` and moves past it; nullopt if it runs past the end.
inline std::optional<std::uint64_t> read_varint(ByteSpan in, std::size_t& pos) {
  if (pos >= in.size()) return std::nullopt;
  const std::size_t length = std::size_t{1} << (in[pos] >> 6);
  if (in.size() - pos < length) return std::nullopt;
  std::uint64_t value = in[pos] & 0x3f;
  for (std::size_t i = 1; i < length; ++i) value = (value << 8) | in[pos + i];
  pos += length;
  return value;
}

// Frame types (RFC 9000 19; 0x08-0x0f STREAM with its OFF/LEN/FIN bits).
namespace frame {
inline constexpr std::uint64_t kPadding = 0x00;
inline constexpr std::uint64_t kPing = 0x01;
inline constexpr std::uint64_t kAck = 0x02;
inline constexpr std::uint64_t kAckEcn = 0x03;
inline constexpr std::uint64_t kResetStream = 0x04;
inline constexpr std::uint64_t kStopSending = 0x05;
inline constexpr std::uint64_t kCrypto = 0x06;
inline constexpr std::uint64_t kNewToken = 0x07;
inline constexpr std::uint64_t kStream = 0x08;  // to 0x0f
inline constexpr std::uint64_t kMaxData = 0x10;
inline constexpr std::uint64_t kMaxStreamData = 0x11;
inline constexpr std::uint64_t kMaxStreamsBidi = 0x12;
inline constexpr std::uint64_t kMaxStreamsUni = 0x13;
inline constexpr std::uint64_t kDataBlocked = 0x14;
inline constexpr std::uint64_t kStreamDataBlocked = 0x15;
inline constexpr std::uint64_t kStreamsBlockedBidi = 0x16;
inline constexpr std::uint64_t kStreamsBlockedUni = 0x17;
inline constexpr std::uint64_t kNewConnectionId = 0x18;
inline constexpr std::uint64_t kRetireConnectionId = 0x19;
inline constexpr std::uint64_t kPathChallenge = 0x1a;
inline constexpr std::uint64_t kPathResponse = 0x1b;
inline constexpr std::uint64_t kConnectionClose = 0x1c;
inline constexpr std::uint64_t kApplicationClose = 0x1d;
inline constexpr std::uint64_t kHandshakeDone = 0x1e;
inline constexpr std::uint64_t kDatagram = 0x30;  // and 0x31 (RFC 9221)
}  // namespace frame

inline bool is_stream_frame(std::uint64_t type) { return type >= 0x08 && type <= 0x0f; }

// One frame of a payload, its fields as the type has them (the rest left 0 or empty). The
// spans point into the payload walked.
struct Frame {
  std::uint64_t type = 0;
  std::size_t begin = 0;  // its bytes within the payload: [begin, end)
  std::size_t end = 0;
  std::uint64_t stream = 0;  // STREAM, RESET_STREAM, STOP_SENDING, MAX_STREAM_DATA, ...
  std::uint64_t offset = 0;  // STREAM, CRYPTO
  ByteSpan data;  // STREAM, CRYPTO, NEW_TOKEN, DATAGRAM data; PATH_* data; NEW_CONNECTION_ID's CID
  bool fin = false;  // STREAM
  // The frame's number: MAX_DATA / MAX_STREAM_DATA / MAX_STREAMS maximum, *_BLOCKED limit,
  // RESET_STREAM final size, NEW_CONNECTION_ID / RETIRE_CONNECTION_ID sequence number,
  // ACK's largest acknowledged.
  std::uint64_t value = 0;
  std::uint64_t retire_prior_to = 0;  // NEW_CONNECTION_ID
  std::uint64_t code = 0;             // RESET_STREAM, STOP_SENDING, CONNECTION_CLOSE
  ByteSpan reason;                    // CONNECTION_CLOSE
  std::uint64_t first_range = 0;      // ACK: its First ACK Range (further ranges not kept)
  std::uint64_t range_count = 0;      // ACK: its ACK Range Count
};

// Reads the frame at `pos` (a run of PADDING bytes is one frame) and moves past it; nullopt
// when the bytes there are not a whole frame of a known type (the rest of the payload cannot
// be delimited then).
inline std::optional<Frame> next_frame(ByteSpan in, std::size_t& pos) {
  Frame f;
  f.begin = pos;
  std::size_t p = pos;
  const auto type = read_varint(in, p);
  if (!type) return std::nullopt;
  f.type = *type;
  auto number = [&](std::uint64_t& into) {
    const auto v = read_varint(in, p);
    if (v) into = *v;
    return v.has_value();
  };
  auto bytes = [&](std::uint64_t length, ByteSpan& into) {
    if (in.size() - p < length) return false;
    into = in.subspan(p, static_cast<std::size_t>(length));
    p += static_cast<std::size_t>(length);
    return true;
  };
  std::uint64_t a = 0, b = 0;
  bool ok = true;
  switch (f.type) {
    case frame::kPadding:
      while (p < in.size() && in[p] == 0) ++p;
      break;
    case frame::kPing:
    case frame::kHandshakeDone:
      break;
    case frame::kAck:
    case frame::kAckEcn:
      ok = number(f.value) && number(a) && number(f.range_count) && number(f.first_range);
      for (std::uint64_t i = 0; ok && i < f.range_count; ++i) ok = number(a) && number(b);
      if (ok && f.type == frame::kAckEcn) ok = number(a) && number(a) && number(a);
      break;
    case frame::kResetStream:
      ok = number(f.stream) && number(f.code) && number(f.value);
      break;
    case frame::kStopSending:
      ok = number(f.stream) && number(f.code);
      break;
    case frame::kCrypto:
      ok = number(f.offset) && number(a) && bytes(a, f.data);
      break;
    case frame::kNewToken:
      ok = number(a) && bytes(a, f.data);
      break;
    case frame::kMaxData:
    case frame::kDataBlocked:
    case frame::kMaxStreamsBidi:
    case frame::kMaxStreamsUni:
    case frame::kStreamsBlockedBidi:
    case frame::kStreamsBlockedUni:
    case frame::kRetireConnectionId:
      ok = number(f.value);
      break;
    case frame::kMaxStreamData:
    case frame::kStreamDataBlocked:
      ok = number(f.stream) && number(f.value);
      break;
    case frame::kNewConnectionId: {
      ok = number(f.value) && number(f.retire_prior_to) && p < in.size();
      if (!ok) break;
      const std::uint64_t length = in[p++];
      ByteSpan token;
      ok = length >= 1 && length <= 20 && bytes(length, f.data) && bytes(16, token);
      break;
    }
    case frame::kPathChallenge:
    case frame::kPathResponse:
      ok = bytes(8, f.data);
      break;
    case frame::kConnectionClose:
    case frame::kApplicationClose:
      ok = number(f.code) && (f.type == frame::kApplicationClose || number(a)) && number(b) &&
           bytes(b, f.reason);
      break;
    case frame::kDatagram:
      f.data = in.subspan(p);
      p = in.size();
      break;
    case frame::kDatagram + 1:
      ok = number(a) && bytes(a, f.data);
      break;
    default:
      if (!is_stream_frame(f.type)) return std::nullopt;
      f.fin = (f.type & 0x01) != 0;
      ok = number(f.stream) && ((f.type & 0x04) == 0 || number(f.offset));
      if (!ok) break;
      if ((f.type & 0x02) != 0) {
        ok = number(a) && bytes(a, f.data);
      } else {
        f.data = in.subspan(p);
        p = in.size();
      }
      break;
  }
  if (!ok) return std::nullopt;
  f.end = p;
  pos = p;
  return f;
}

// Every frame of a payload, in order; `whole` (if given) says whether the walk reached its end.
inline std::vector<Frame> frames_of(ByteSpan payload, bool* whole = nullptr) {
  std::vector<Frame> out;
  std::size_t pos = 0;
  while (pos < payload.size()) {
    auto f = next_frame(payload, pos);
    if (!f) break;
    out.push_back(*f);
  }
  if (whole != nullptr) *whole = pos >= payload.size();
  return out;
}

// Writers (the fields as RFC 9000 19 lays them out).
inline void put_bytes(Bytes& out, ByteSpan bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

inline void put_ping(Bytes& out) { out.push_back(frame::kPing); }

// A STREAM frame with its offset and length (type 0x0e, 0x0f with FIN).
inline void put_stream(Bytes& out, std::uint64_t stream, std::uint64_t offset, ByteSpan data,
                       bool fin) {
  put_varint(out, fin ? 0x0f : 0x0e);
  put_varint(out, stream);
  put_varint(out, offset);
  put_varint(out, data.size());
  put_bytes(out, data);
}

inline void put_reset_stream(Bytes& out, std::uint64_t stream, std::uint64_t code,
                             std::uint64_t final_size) {
  put_varint(out, frame::kResetStream);
  put_varint(out, stream);
  put_varint(out, code);
  put_varint(out, final_size);
}

inline void put_crypto(Bytes& out, std::uint64_t offset, ByteSpan data) {
  put_varint(out, frame::kCrypto);
  put_varint(out, offset);
  put_varint(out, data.size());
  put_bytes(out, data);
}

inline void put_new_connection_id(Bytes& out, std::uint64_t sequence, std::uint64_t retire_prior_to,
                                  ByteSpan cid, ByteSpan reset_token) {
  put_varint(out, frame::kNewConnectionId);
  put_varint(out, sequence);
  put_varint(out, retire_prior_to);
  out.push_back(static_cast<std::uint8_t>(cid.size()));
  put_bytes(out, cid);
  put_bytes(out, reset_token.first(16));
}

inline void put_path_challenge(Bytes& out, ByteSpan data) {
  put_varint(out, frame::kPathChallenge);
  put_bytes(out, data.first(8));
}

inline void put_max_data(Bytes& out, std::uint64_t maximum) {
  put_varint(out, frame::kMaxData);
  put_varint(out, maximum);
}

inline void put_max_stream_data(Bytes& out, std::uint64_t stream, std::uint64_t maximum) {
  put_varint(out, frame::kMaxStreamData);
  put_varint(out, stream);
  put_varint(out, maximum);
}

// CONNECTION_CLOSE of the application (0x1d): an HTTP/3 error code, no reason.
inline void put_application_close(Bytes& out, std::uint64_t code) {
  put_varint(out, frame::kApplicationClose);
  put_varint(out, code);
  put_varint(out, 0);
}

// A range of packet numbers, both ends included.
struct PacketRange {
  std::uint64_t smallest = 0;
  std::uint64_t largest = 0;
};

// An ACK frame for `ranges` (largest first, disjoint, not adjacent), no ACK delay.
inline void put_ack(Bytes& out, std::span<const PacketRange> ranges) {
  if (ranges.empty()) return;
  put_varint(out, frame::kAck);
  put_varint(out, ranges.front().largest);
  put_varint(out, 0);  // ACK Delay
  put_varint(out, ranges.size() - 1);
  put_varint(out, ranges.front().largest - ranges.front().smallest);
  for (std::size_t i = 1; i < ranges.size(); ++i) {
    put_varint(out, ranges[i - 1].smallest - ranges[i].largest - 2);  // Gap
    put_varint(out, ranges[i].largest - ranges[i].smallest);          // ACK Range Length
  }
}

}  // namespace loiter::quic
