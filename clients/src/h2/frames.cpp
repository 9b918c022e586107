// HTTP/2 frames written and split by hand (RFC 9113 4.1, 6): big-endian fields, a 9-byte
// header before each payload.
#include "loiter/clients/h2/frames.hpp"

namespace loiter::clients::h2 {

namespace {

void put_u16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v));
}

void put_u24(std::string& out, std::uint32_t v) {
  out.push_back(static_cast<char>(v >> 16));
  put_u16(out, static_cast<std::uint16_t>(v));
}

void put_u32(std::string& out, std::uint32_t v) {
  put_u16(out, static_cast<std::uint16_t>(v >> 16));
  put_u16(out, static_cast<std::uint16_t>(v));
}

std::uint32_t get_u32(std::string_view bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

constexpr std::uint32_t kStreamMask = 0x7fff'ffff;

}  // namespace

std::string frame(Type type, std::uint8_t flags, std::uint32_t stream, std::string_view payload) {
  std::string out;
  out.reserve(kFrameHeader + payload.size());
  put_u24(out, static_cast<std::uint32_t>(payload.size()));
  out.push_back(static_cast<char>(type));
  out.push_back(static_cast<char>(flags));
  put_u32(out, stream & kStreamMask);
  out.append(payload);
  return out;
}

std::string settings(const Settings& values) {
  std::string payload;
  for (const auto& [id, value] : values) {
    put_u16(payload, id);
    put_u32(payload, value);
  }
  return frame(Type::settings, 0, 0, payload);
}

std::string settings_ack() { return frame(Type::settings, flag::ack, 0, {}); }

std::string ping(std::uint64_t opaque, bool ack) {
  std::string payload;
  put_u32(payload, static_cast<std::uint32_t>(opaque >> 32));
  put_u32(payload, static_cast<std::uint32_t>(opaque));
  return frame(Type::ping, ack ? flag::ack : 0, 0, payload);
}

std::string window_update(std::uint32_t stream, std::uint32_t increment) {
  std::string payload;
  put_u32(payload, increment & kStreamMask);
  return frame(Type::window_update, 0, stream, payload);
}

std::string rst_stream(std::uint32_t stream, std::uint32_t error_code) {
  std::string payload;
  put_u32(payload, error_code);
  return frame(Type::rst_stream, 0, stream, payload);
}

std::string goaway(std::uint32_t last_stream, std::uint32_t error_code) {
  std::string payload;
  put_u32(payload, last_stream & kStreamMask);
  put_u32(payload, error_code);
  return frame(Type::goaway, 0, 0, payload);
}

std::string headers(std::uint32_t stream, std::string_view block, bool end_stream,
                    bool end_headers) {
  const std::uint8_t flags =
      (end_stream ? flag::end_stream : 0) | (end_headers ? flag::end_headers : 0);
  return frame(Type::headers, flags, stream, block);
}

std::string continuation(std::uint32_t stream, std::string_view block, bool end_headers) {
  return frame(Type::continuation, end_headers ? flag::end_headers : 0, stream, block);
}

std::string data(std::uint32_t stream, std::string_view payload, bool end_stream) {
  return frame(Type::data, end_stream ? flag::end_stream : 0, stream, payload);
}

void FrameReader::feed(std::string_view bytes) {
  if (failed_) return;
  if (offset_ > 0 && offset_ == pending_.size()) {  // all taken: start over, no copy
    pending_.clear();
    offset_ = 0;
  }
  pending_.append(bytes);
}

std::optional<Frame> FrameReader::next() {
  if (failed_) return std::nullopt;
  const std::string_view rest = std::string_view(pending_).substr(offset_);
  if (rest.size() < kFrameHeader) return std::nullopt;
  Frame f;
  f.length = get_u32(rest, 0) >> 8;
  f.type = static_cast<std::uint8_t>(rest[3]);
  f.flags = static_cast<std::uint8_t>(rest[4]);
  f.stream = get_u32(rest, 5) & kStreamMask;
  // An HTTP/1.1 answer to the preface ("HTTP/1.1 400 ...") would read as a 4.7 MB frame
  // of type 'P': not h2, whatever the limit.
  if (f.length > max_length_ || rest.starts_with("HTTP/")) {
    failed_ = true;
    pending_.clear();
    pending_.shrink_to_fit();
    return std::nullopt;
  }
  if (rest.size() < kFrameHeader + f.length) return std::nullopt;
  f.payload.assign(rest.substr(kFrameHeader, f.length));
  offset_ += kFrameHeader + f.length;
  if (offset_ == pending_.size()) {
    pending_.clear();
    offset_ = 0;
  } else if (offset_ > 64 * 1024) {
    pending_.erase(0, offset_);
    offset_ = 0;
  }
  return f;
}

std::optional<GoawayPayload> parse_goaway(std::string_view payload) {
  if (payload.size() < 8) return std::nullopt;
  return GoawayPayload{.last_stream = get_u32(payload, 0) & kStreamMask,
                       .error_code = get_u32(payload, 4)};
}

std::optional<std::uint32_t> parse_rst_stream(std::string_view payload) {
  if (payload.size() < 4) return std::nullopt;
  return get_u32(payload, 0);
}

std::optional<std::uint32_t> parse_window_update(std::string_view payload) {
  if (payload.size() < 4) return std::nullopt;
  return get_u32(payload, 0) & kStreamMask;
}

std::optional<Settings> parse_settings(std::string_view payload) {
  if (payload.size() % 6 != 0) return std::nullopt;
  Settings values;
  for (std::size_t at = 0; at < payload.size(); at += 6) {
    const auto id = static_cast<std::uint16_t>((static_cast<unsigned char>(payload[at]) << 8) |
                                               static_cast<unsigned char>(payload[at + 1]));
    values.emplace_back(id, get_u32(payload, at + 2));
  }
  return values;
}

}  // namespace loiter::clients::h2
