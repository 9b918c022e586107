// Received HTTP/2 frames into the connection's record (see session_reader.hpp).
#include "loiter/clients/h2/session_reader.hpp"

#include <algorithm>
#include <charconv>

namespace loiter::clients::h2 {

namespace {

constexpr std::uint8_t kPadded = 0x8;     // DATA, HEADERS: a pad length byte leads
constexpr std::uint8_t kPriority = 0x20;  // HEADERS: 5 bytes of priority lead the block

// The payload without padding (and, for HEADERS, its priority fields); empty if malformed.
std::string_view content(const Frame& frame, bool headers) {
  std::string_view payload = frame.payload;
  std::size_t pad = 0;
  if (frame.flags & kPadded) {
    if (payload.empty()) return {};
    pad = static_cast<unsigned char>(payload.front());
    payload.remove_prefix(1);
  }
  if (headers && (frame.flags & kPriority)) payload.remove_prefix(std::min<std::size_t>(5, payload.size()));
  return pad <= payload.size() ? payload.substr(0, payload.size() - pad) : std::string_view{};
}

unsigned status_of(const HeaderList& fields) {
  for (const auto& [name, value] : fields) {
    if (name != ":status") continue;
    unsigned status = 0;
    std::from_chars(value.data(), value.data() + value.size(), status);
    return status;
  }
  return 0;
}

}  // namespace

void SessionReader::feed(std::string_view bytes, Duration at, ConnectionRecord& record) {
  if (failed_) return;
  frames_.feed(bytes);
  // Each turn takes one whole frame: bounded by the bytes fed.
  while (auto frame = frames_.next()) {
    ++record.h2->frames_received;
    on_frame(*frame, at, record);
    if (failed_) return;
  }
  failed_ = frames_.failed();
}

std::pair<std::string, std::size_t> SessionReader::take_owed() {
  std::pair<std::string, std::size_t> owed{std::move(owed_), owed_frames_};
  owed_.clear();
  owed_frames_ = 0;
  return owed;
}

void SessionReader::on_frame(const Frame& frame, Duration at, ConnectionRecord& record) {
  if (block_stream_ != 0 && !frame.is(Type::continuation)) {
    failed_ = true;  // a header block interrupted: a PROTOCOL_ERROR, the table is lost
    return;
  }
  if (frame.is(Type::headers) || frame.is(Type::continuation)) {
    if (frame.is(Type::headers)) {
      block_stream_ = frame.stream;
      block_ends_stream_ = (frame.flags & flag::end_stream) != 0;
    }
    block_.append(content(frame, frame.is(Type::headers)));
    if (frame.flags & flag::end_headers) on_header_block(at, record);
    return;
  }
  if (frame.is(Type::data)) {
    on_data(frame, at, record);
    return;
  }
  on_control(frame, at, *record.h2);
}

void SessionReader::on_header_block(Duration at, ConnectionRecord& record) {
  const auto fields = decoder_.decode(block_);
  const std::uint32_t stream = block_stream_;
  block_.clear();
  block_stream_ = 0;
  if (!fields) {
    failed_ = true;
    return;
  }
  Response* response = response_of(stream, record);
  const unsigned status = status_of(*fields);
  if (response == nullptr) {
    streams_.emplace_back(stream, record.responses.size());
    response = &record.responses.emplace_back();
    response->started = at;
  }
  // A 1xx is followed by the final header block; trailers carry no :status.
  if (status != 0 && (response->status == 0 || response->status / 100 == 1)) {
    response->status = status;
    response->fields = {};
    for (const auto& [name, value] : *fields) response->fields.add(name, value);
  }
  if (block_ends_stream_) response->complete = at;
}

void SessionReader::on_data(const Frame& frame, Duration at, ConnectionRecord& record) {
  Response* response = response_of(frame.stream, record);
  if (response == nullptr) return;  // DATA before HEADERS: a protocol error, counted only
  response->body_bytes += content(frame, false).size();
  if (frame.flags & flag::end_stream) response->complete = at;
}

void SessionReader::on_control(const Frame& frame, Duration at, H2Record& h2) {
  const bool ack = (frame.flags & flag::ack) != 0;
  if (frame.is(Type::settings) && ack) {
    if (!h2.settings_ack) h2.settings_ack = at;
  } else if (frame.is(Type::settings)) {
    if (!h2.server_settings) h2.server_settings = at;
    if (answer_control_) {
      owed_ += settings_ack();
      ++owed_frames_;
    }
  } else if (frame.is(Type::ping) && !ack && answer_control_ && frame.payload.size() == 8) {
    owed_ += h2::frame(Type::ping, flag::ack, 0, frame.payload);
    ++owed_frames_;
  } else if (frame.is(Type::goaway)) {
    const auto goaway = parse_goaway(frame.payload);
    if (goaway && !h2.goaway) {
      h2.goaway = H2Goaway{.at = at,
                           .last_stream = goaway->last_stream,
                           .code = goaway->error_code,
                           .frames_sent = h2.frames_sent};
    }
  } else if (frame.is(Type::rst_stream)) {
    const auto code = parse_rst_stream(frame.payload);
    if (code && h2.resets.size() < H2Record::kKeptResets) {
      h2.resets.push_back({.at = at, .stream = frame.stream, .code = *code});
    }
    h2.reset_count += code.has_value();
  }
}

Response* SessionReader::response_of(std::uint32_t stream, ConnectionRecord& record) {
  for (const auto& [id, index] : streams_) {
    if (id == stream) return &record.responses[index];
  }
  return nullptr;
}

}  // namespace loiter::clients::h2
