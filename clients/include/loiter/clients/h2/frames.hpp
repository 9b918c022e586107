// HTTP/2 frames as bytes (RFC 9113 4.1): a 9-byte header — 24-bit length, type, flags, a
// reserved bit and a 31-bit stream id — then the payload. Written by hand, not through an
// HTTP/2 session, because the clients that stall or flood a server send what no
// well-behaved session would: a header block never ended, a SETTINGS never acknowledged, a
// thousand streams opened and reset. Header blocks are HPACK (hpack.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loiter::clients::h2 {

// The client connection preface (RFC 9113 3.4), 24 bytes; a SETTINGS frame follows it.
inline constexpr std::string_view kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
inline constexpr std::size_t kFrameHeader = 9;
inline constexpr std::size_t kDefaultMaxFrame = 16'384;  // SETTINGS_MAX_FRAME_SIZE's default

enum class Type : std::uint8_t {
  data = 0x0,
  headers = 0x1,
  priority = 0x2,
  rst_stream = 0x3,
  settings = 0x4,
  push_promise = 0x5,
  ping = 0x6,
  goaway = 0x7,
  window_update = 0x8,
  continuation = 0x9,
};

namespace flag {
inline constexpr std::uint8_t end_stream = 0x1;   // DATA, HEADERS
inline constexpr std::uint8_t ack = 0x1;          // SETTINGS, PING
inline constexpr std::uint8_t end_headers = 0x4;  // HEADERS, CONTINUATION
}  // namespace flag

// Error codes (RFC 9113 7).
namespace code {
inline constexpr std::uint32_t no_error = 0x0;
inline constexpr std::uint32_t protocol_error = 0x1;
inline constexpr std::uint32_t cancel = 0x8;
inline constexpr std::uint32_t enhance_your_calm = 0xb;
}  // namespace code

// SETTINGS identifiers (RFC 9113 6.5.2).
namespace setting {
inline constexpr std::uint16_t header_table_size = 0x1;
inline constexpr std::uint16_t enable_push = 0x2;
inline constexpr std::uint16_t max_concurrent_streams = 0x3;
inline constexpr std::uint16_t initial_window_size = 0x4;
inline constexpr std::uint16_t max_frame_size = 0x5;
}  // namespace setting

using Settings = std::vector<std::pair<std::uint16_t, std::uint32_t>>;

// One frame's bytes: header and payload.
std::string frame(Type type, std::uint8_t flags, std::uint32_t stream, std::string_view payload);

std::string settings(const Settings& values);
std::string settings_ack();
std::string ping(std::uint64_t opaque, bool ack = false);
std::string window_update(std::uint32_t stream, std::uint32_t increment);
std::string rst_stream(std::uint32_t stream, std::uint32_t error_code);
std::string goaway(std::uint32_t last_stream, std::uint32_t error_code);
// HEADERS with END_HEADERS unless `end_headers` is false (a CONTINUATION must follow).
std::string headers(std::uint32_t stream, std::string_view block, bool end_stream,
                    bool end_headers = true);
std::string continuation(std::uint32_t stream, std::string_view block, bool end_headers);
std::string data(std::uint32_t stream, std::string_view payload, bool end_stream);

// A frame received: its header, and its payload (of at most the reader's limit).
struct Frame {
  std::uint32_t length = 0;
  std::uint8_t type = 0;  // a Type, or an extension's type
  std::uint8_t flags = 0;
  std::uint32_t stream = 0;
  std::string payload;

  bool is(Type t) const { return type == static_cast<std::uint8_t>(t); }
};

// Splits received bytes into frames. Bytes that are not frames (a server answering
// HTTP/1.1 to a preface) or a frame longer than `max_length` make it fail; it then takes
// no more.
class FrameReader {
 public:
  explicit FrameReader(std::size_t max_length = 1 << 24) : max_length_(max_length) {}

  void feed(std::string_view bytes);
  // The next whole frame, if one has arrived.
  std::optional<Frame> next();
  bool failed() const { return failed_; }

 private:
  std::string pending_;
  std::size_t offset_ = 0;  // where the next frame starts in pending_
  std::size_t max_length_;
  bool failed_ = false;
};

// The parts of a received GOAWAY, RST_STREAM, WINDOW_UPDATE; nullopt if the payload is short.
struct GoawayPayload {
  std::uint32_t last_stream = 0;
  std::uint32_t error_code = 0;
};
std::optional<GoawayPayload> parse_goaway(std::string_view payload);
std::optional<std::uint32_t> parse_rst_stream(std::string_view payload);  // its error code
std::optional<std::uint32_t> parse_window_update(std::string_view payload);
std::optional<Settings> parse_settings(std::string_view payload);

}  // namespace loiter::clients::h2
