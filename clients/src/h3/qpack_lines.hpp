// QPACK's field-line and instruction bytes (RFC 9204 4.1.1, 4.3, 4.5) the h3 kinds write by
// hand: h3-headers-stall and -trickle (field_section.cpp) and the QPACK floods.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace loiter::clients::h3 {

// An HPACK/QPACK prefixed integer (RFC 7541 5.1) whose first byte keeps `flags` above its
// `prefix` bits.
void put_prefixed(std::string& out, std::uint8_t flags, int prefix, std::uint64_t value);
// A literal field line with a static-table name reference (01NTxxxx, T=1), value not
// Huffman-coded.
void put_literal(std::string& out, std::uint64_t name_index, std::string_view value);
// A literal field line with a literal name (001NHxxx: N=0, H=0), neither Huffman-coded.
void put_literal_name(std::string& out, std::string_view name, std::string_view value);

}  // namespace loiter::clients::h3
