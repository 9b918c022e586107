// The few HTTP/3 bytes h3-headers-stall and h3-headers-trickle write by hand: a frame header and a
// request's QPACK field section that uses the static table only (RFC 9204 4.5), so no encoder
// stream is needed and the half the kind sends is a prefix of a valid section.
#include <cstdint>
#include <string>
#include <string_view>

#include "loiter/quic/frames.hpp"
#include "qpack_lines.hpp"
#include "quic_connection.hpp"

namespace loiter::clients::h3 {

void put_prefixed(std::string& out, std::uint8_t flags, int prefix, std::uint64_t value) {
  const std::uint64_t limit = (1U << prefix) - 1;
  if (value < limit) {
    out.push_back(static_cast<char>(flags | value));
    return;
  }
  out.push_back(static_cast<char>(flags | limit));
  value -= limit;
  while (value >= 0x80) {  // bounded: 7 bits a byte
    out.push_back(static_cast<char>(0x80 | (value & 0x7f)));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void put_literal(std::string& out, std::uint64_t name_index, std::string_view value) {
  put_prefixed(out, 0x50, 4, name_index);
  put_prefixed(out, 0x00, 7, value.size());
  out.append(value);
}

void put_literal_name(std::string& out, std::string_view name, std::string_view value) {
  put_prefixed(out, 0x20, 3, name.size());
  out.append(name);
  put_prefixed(out, 0x00, 7, value.size());
  out.append(value);
}

std::string qpack_get_section(std::string_view authority, std::string_view path,
                              std::size_t padding) {
  std::string out;
  out.push_back(0x00);             // Required Insert Count 0
  out.push_back(0x00);             // Delta Base 0
  put_prefixed(out, 0xc0, 6, 17);  // :method GET (static 17)
  put_prefixed(out, 0xc0, 6, 23);  // :scheme https (static 23)
  put_literal(out, 1, path);       // :path (static name 1)
  put_literal(out, 0, authority);  // :authority (static name 0)
  if (padding > 0) put_literal_name(out, "x-loiter-pad", std::string(padding, 'a'));
  return out;
}

std::string frame_header(std::uint64_t type, std::uint64_t length) {
  quic::Bytes bytes;
  quic::put_varint(bytes, type);
  quic::put_varint(bytes, length);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace loiter::clients::h3
