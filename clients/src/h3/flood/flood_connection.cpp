// FloodConnection's writing half: the hand-over's keys and credit, the client's own streams,
// its packets (with the ACKs it owes, unless it withholds them) and the flood's loop. What
// the server sends back is read in flood_reading.cpp.
#include "h3/flood/flood_connection.hpp"

#include <algorithm>

#include "h3/initial/initial_keys.hpp"

namespace loiter::clients::h3 {

namespace flood_detail {

using namespace std::chrono_literals;

// The largest datagram the floods send: within any path's minimum (RFC 9000 14).
constexpr std::size_t kDatagram = 1200;
// How long the flood reads between two batches: the server's turn to answer.
constexpr auto kBatchGap = 1ms;
// Without credit this long, the flood stops: the server refused what would come next.
constexpr auto kStallLimit = 1s;
// The longest the flood waits after its hand-over for the server's SETTINGS.
constexpr auto kSettingsWait = 500ms;

std::shared_ptr<const H3Options> h3_of(const std::shared_ptr<const H3FloodOptions>& flood) {
  return std::shared_ptr<const H3Options>(flood, &flood->h3);
}

}  // namespace flood_detail

using namespace flood_detail;

ServerSettings parse_server_settings(std::string_view control) {
  ServerSettings out;
  const quic::ByteSpan in(reinterpret_cast<const std::uint8_t*>(control.data()), control.size());
  std::size_t pos = 0;
  const auto type = quic::read_varint(in, pos);
  if (!type || *type != 0x00) return out;
  const auto frame = quic::read_varint(in, pos);
  const auto length = quic::read_varint(in, pos);
  if (!frame || *frame != 0x04 || !length || in.size() - pos < *length) return out;
  const std::size_t end = pos + static_cast<std::size_t>(*length);
  const auto settings = in.first(end);
  while (pos < end) {
    const auto id = quic::read_varint(settings, pos);
    const auto value = quic::read_varint(settings, pos);
    if (!id || !value) return out;
    if (*id == 0x01) out.table_capacity = *value;
    if (*id == 0x06) out.max_field_section_size = *value;
    if (*id == 0x07) out.blocked_streams = *value;
  }
  out.seen = true;
  return out;
}

FloodConnection::FloodConnection(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                                 std::size_t index, ConnectionRecord& record, std::string_view kind,
                                 bool withhold_acks)
    : QuicConnection(executor, h3_of(flood), index, record, kind),
      flood_(std::move(flood)),
      withhold_acks_(withhold_acks) {}

void FloodConnection::on_handed_over(HandOver hand_over) {
  link_ = std::move(hand_over);
  const auto aead = link_.chacha ? h3init::Aead::chacha20_poly1305 : h3init::Aead::aes_128_gcm;
  tx_ = h3init::packet_keys(aead, link_.client_secret);
  rx_ = h3init::packet_keys(aead, link_.server_secret);
  next_packet_ = link_.next_packet_number;
  max_data_ = link_.max_data;
  max_bidi_ = link_.streams_bidi;
  max_uni_ = link_.streams_uni;
  if (link_.reset_token) reset_tokens_.push_back(*link_.reset_token);
  for (const auto& [id, bytes] : link_.server_streams) {
    if (!bytes.empty() && bytes[0] == 0x00) {
      server_control_id_ = id;
      server_control_ = bytes;
      settings_ = parse_server_settings(server_control_);
    }
  }
  h3().acks_withheld = withhold_acks_;
  limit_ = flood_->frames != 0 ? flood_->frames : kH3FloodFrames;
  until_ = Clock::now() + flood_->duration;
  // Every HTTP/3 client opens its control stream with its SETTINGS (RFC 9114 6.2.1): none of
  // its own (an empty frame: no dynamic table for the server's encoder).
  const std::int64_t control = open_uni(0x00);
  if (control >= 0) queue(control, std::string("\x04\x00", 2), false);
  handed_over_at_ = Clock::now();
  step();
}

std::optional<std::int64_t> FloodConnection::open_bidi() {
  if (bidi_opened_ >= max_bidi_) return std::nullopt;
  const auto id = static_cast<std::int64_t>(4 * bidi_opened_++);
  streams_own_.push_back(OwnStream{.id = id, .limit = link_.stream_window});
  ++h3().streams_opened;
  return id;
}

std::int64_t FloodConnection::open_uni(std::uint8_t type) {
  if (uni_opened_ >= max_uni_) return -1;
  const auto id = static_cast<std::int64_t>(4 * uni_opened_++ + 2);
  streams_own_.push_back(OwnStream{.id = id, .limit = link_.uni_window});
  queue(id, std::string(1, static_cast<char>(type)), false);
  return id;
}

FloodConnection::OwnStream* FloodConnection::own(std::int64_t id) {
  // Request streams are 0, 4, 8, ... in order of opening; the few unidirectional ones are
  // searched.
  if ((id & 0x3) == 0) {
    for (auto it = streams_own_.rbegin(); it != streams_own_.rend(); ++it) {
      if (it->id == id) return &*it;
      if ((it->id & 0x3) == 0 && it->id < id) break;
    }
    return nullptr;
  }
  const auto it = std::ranges::find(streams_own_, id, &OwnStream::id);
  return it == streams_own_.end() ? nullptr : &*it;
}

bool FloodConnection::take_credit(std::uint64_t bytes) {
  if (data_sent_ + bytes > max_data_) return false;
  data_sent_ += bytes;
  return true;
}

bool FloodConnection::queue(std::int64_t stream, std::string bytes, bool fin) {
  OwnStream* s = own(stream);
  if (s == nullptr || s->offset + bytes.size() > s->limit || !take_credit(bytes.size())) {
    return false;
  }
  pending_.push_back(Chunk{
      .stream = stream, .offset = s->offset, .bytes = std::move(bytes), .sent = 0, .fin = fin});
  s->offset += pending_.back().bytes.size();
  return true;
}

std::size_t FloodConnection::frames_left() const {
  return limit_ > h3().frames_sent ? limit_ - h3().frames_sent : 0;
}

std::size_t FloodConnection::room_in_packet() const {
  // The short header (1 + DCID + a 4-byte packet number), the AEAD's tag, and an ACK frame's
  // worst case left out.
  const std::size_t overhead = 1 + link_.dcid.size() + 4 + h3init::kAeadTagSize + 64;
  return kDatagram - overhead;
}

void FloodConnection::add_pending(quic::Bytes& payload) {
  while (!pending_.empty() && room_in_packet() > payload.size() + 32) {
    Chunk& c = pending_.front();
    const std::size_t take =
        std::min(c.bytes.size() - c.sent, room_in_packet() - payload.size() - 32);
    const bool last = c.sent + take == c.bytes.size();
    const auto* data = reinterpret_cast<const std::uint8_t*>(c.bytes.data()) + c.sent;
    quic::put_stream(payload, static_cast<std::uint64_t>(c.stream), c.offset + c.sent,
                     quic::ByteSpan(data, take), last && c.fin);
    c.sent += take;
    if (!last) return;
    pending_.pop_front();
  }
}

void FloodConnection::add_ack(quic::Bytes& payload) {
  if (withhold_acks_ || received_.empty() || !ack_owed_) return;
  quic::put_ack(payload, received_);
  ack_owed_ = false;
}

bool FloodConnection::send_packet(quic::Bytes payload) {
  const quic::Bytes packet = h3init::protect_short(
      tx_,
      h3init::ShortHeader{
          .dcid = link_.dcid, .packet_number = next_packet_++, .packet_number_length = 4},
      payload);
  return send_own(packet);
}

void FloodConnection::step() {
  if (ended() || stopped_) return;
  const auto now = Clock::now();
  if (now >= until_) {
    stop();
    return;
  }
  if (!started_) {
    // The flood begins once the server's SETTINGS are known (what its QPACK allows), or
    // kSettingsWait after the hand-over without them (taken as the defaults: no dynamic
    // table, no limits); meanwhile only the client's control stream and ACKs go.
    if (settings_.seen || now - handed_over_at_ >= kSettingsWait) {
      started_ = true;
      until_ = now + flood_->duration;
      open_flood();
      if (ended()) return;
    } else {
      quic::Bytes payload;
      add_ack(payload);
      add_pending(payload);
      if (!payload.empty() && !send_packet(std::move(payload))) return;
      at(now + kBatchGap * 5, [this] { step(); });
      return;
    }
  }
  H3Record& record = h3();
  bool blocked = false;
  for (std::size_t i = 0; i < flood_->batch && !ended(); ++i) {
    quic::Bytes payload;
    add_ack(payload);
    // The client's own stream bytes first (its control stream, a bomb's HEADERS).
    add_pending(payload);
    const std::size_t room = room_in_packet();
    std::size_t added = 0;
    const bool more = add_flood_frames(payload, room, added);
    record.frames_sent += added;
    if (added > 0) stalled_since_.reset();
    if (added == 0 && !more) blocked = true;
    if (payload.empty()) break;
    if (!send_packet(std::move(payload))) return;
    if (record.frames_sent >= limit_) {
      stop();
      return;
    }
    if (!more) break;
  }
  if (blocked && pending_.empty()) {
    // No credit for the flood's next frame: without any for kStallLimit, it is over.
    if (!stalled_since_) stalled_since_ = now;
    if (now - *stalled_since_ >= kStallLimit) {
      record.credit_stalled = true;
      stop();
      return;
    }
  }
  at(now + kBatchGap, [this] { step(); });
}

void FloodConnection::stop() {
  if (stopped_) return;
  stopped_ = true;
  // A late close may still come: read for the linger, then say goodbye.
  at(Clock::now() + flood_->linger, [this] {
    on_own_deadline();
    close_by_client();
  });
}

void FloodConnection::on_own_deadline() {
  // Patience: the client says goodbye in a packet of its own (H3_NO_ERROR).
  quic::Bytes payload;
  quic::put_application_close(payload, 0x0100);
  send_packet(std::move(payload));
}

}  // namespace loiter::clients::h3
