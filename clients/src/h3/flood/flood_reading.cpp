// FloodConnection's reading half: the server's 1-RTT packets opened with its traffic keys,
// their packet numbers kept for the ACKs the flood owes, and their frames taken in: credit
// (MAX_DATA, MAX_STREAMS, MAX_STREAM_DATA), the flood's streams answered, reset or stopped,
// what the server sent back (RETIRE_CONNECTION_ID, PATH_RESPONSE), its CONNECTION_CLOSE,
// and a stateless reset.
#include <algorithm>

#include "h3/flood/flood_connection.hpp"

namespace loiter::clients::h3 {

namespace flood_reading_detail {

constexpr std::size_t kKeptRanges = 32;  // ACK ranges kept (the oldest dropped past it)
constexpr std::size_t kHeadBytes = 64;   // a response's first bytes kept for its status

bool ack_eliciting(std::uint64_t type) {
  return type != quic::frame::kPadding && type != quic::frame::kAck &&
         type != quic::frame::kAckEcn && type != quic::frame::kConnectionClose &&
         type != quic::frame::kApplicationClose;
}

}  // namespace flood_reading_detail

using namespace flood_reading_detail;

void FloodConnection::on_own_datagram(std::span<const std::uint8_t> datagram) {
  if (ended() || datagram.empty()) return;
  if ((datagram[0] & 0x80) != 0) return;  // a long header: the handshake's, over and done
  // The server's packets are addressed to one of the client's connection IDs, all of the
  // length ngtcp2 chose. A key update (key phase 1) the floods do not follow: not opened.
  std::optional<h3init::OpenedShort> opened;
  for (const std::uint64_t guess :
       {largest_received_, largest_received_ + 256, largest_received_ + 65536}) {
    opened = h3init::open_short(rx_, datagram, link_.scid_length, guess);
    if (opened || received_any_) break;  // once numbers are known, one guess is right
  }
  if (!opened) {
    if (is_stateless_reset(datagram)) {
      h3().stateless_reset = true;
      server_closed(Ending::reset, std::nullopt, "stateless reset");
    }
    return;
  }
  received(opened->packet_number);
  bool eliciting = false;
  take_frames(opened->payload, eliciting);
  if (ended()) return;
  if (eliciting) ack_owed_ = true;
  // Between batches the flood's own packets carry the ACK; once it stopped, one of its own.
  if (stopped_ && ack_owed_ && !withhold_acks_) {
    quic::Bytes payload;
    add_ack(payload);
    send_packet(std::move(payload));
  }
}

void FloodConnection::received(std::uint64_t number) {
  if (!received_any_ || number > largest_received_) largest_received_ = number;
  received_any_ = true;
  // Ranges largest first; a number joins the range it touches, else starts one.
  auto it = std::ranges::find_if(received_, [number](const quic::PacketRange& r) {
    return number + 1 >= r.smallest && number <= r.largest + 1;
  });
  if (it == received_.end()) {
    const auto at = std::ranges::find_if(
        received_, [number](const quic::PacketRange& r) { return r.largest < number; });
    received_.insert(at, quic::PacketRange{.smallest = number, .largest = number});
    if (received_.size() > kKeptRanges) received_.pop_back();
    return;
  }
  it->smallest = std::min(it->smallest, number);
  it->largest = std::max(it->largest, number);
  // Two ranges the number joined become one.
  if (it != received_.begin() && std::prev(it)->smallest <= it->largest + 1) {
    std::prev(it)->smallest = it->smallest;
    received_.erase(it);
  } else if (std::next(it) != received_.end() && std::next(it)->largest + 1 >= it->smallest) {
    it->smallest = std::next(it)->smallest;
    received_.erase(std::next(it));
  }
}

void FloodConnection::take_frames(std::span<const std::uint8_t> payload, bool& eliciting) {
  H3Record& record = h3();
  std::size_t pos = 0;
  while (pos < payload.size() && !ended()) {
    const auto f = quic::next_frame(payload, pos);
    if (!f) return;  // a frame it cannot read: the rest cannot be delimited
    eliciting = eliciting || ack_eliciting(f->type);
    switch (f->type) {
      case quic::frame::kMaxData:
        max_data_ = std::max(max_data_, f->value);
        break;
      case quic::frame::kMaxStreamsBidi:
        max_bidi_ = std::max(max_bidi_, f->value);
        break;
      case quic::frame::kMaxStreamsUni:
        max_uni_ = std::max(max_uni_, f->value);
        break;
      case quic::frame::kMaxStreamData:
        if (OwnStream* s = own(static_cast<std::int64_t>(f->stream))) {
          s->limit = std::max(s->limit, f->value);
        }
        break;
      case quic::frame::kResetStream:
      case quic::frame::kStopSending:
        stream_ended(static_cast<std::int64_t>(f->stream), f->code,
                     f->type == quic::frame::kStopSending);
        break;
      case quic::frame::kRetireConnectionId:
        ++record.retire_frames_received;
        break;
      case quic::frame::kPathResponse:
        ++record.path_responses_received;
        break;
      case quic::frame::kNewConnectionId:
        if (f->end >= 16) {
          std::array<std::uint8_t, 16> token{};
          std::copy_n(payload.begin() + static_cast<std::ptrdiff_t>(f->end - 16), 16,
                      token.begin());
          if (reset_tokens_.size() < 16) reset_tokens_.push_back(token);
        }
        break;
      case quic::frame::kConnectionClose:
      case quic::frame::kApplicationClose: {
        H3Close close{.at = since_connect(Clock::now()),
                      .code = f->code,
                      .application = f->type == quic::frame::kApplicationClose};
        close.reason.assign(reinterpret_cast<const char*>(f->reason.data()),
                            std::min<std::size_t>(f->reason.size(), 64));
        server_closed(Ending::close, std::move(close), {});
        return;
      }
      default:
        if (quic::is_stream_frame(f->type)) take_stream(*f);
        break;
    }
  }
}

void FloodConnection::take_stream(const quic::Frame& f) {
  const auto id = static_cast<std::int64_t>(f.stream);
  if ((id & 0x3) == 0x3) {
    // A server unidirectional stream: its control stream's SETTINGS, if not read yet.
    if (settings_.seen || f.offset > server_control_.size() || server_control_.size() > 4096) {
      return;
    }
    if (server_control_id_ >= 0 && id != server_control_id_) return;
    const std::size_t skip = server_control_.size() - static_cast<std::size_t>(f.offset);
    if (skip >= f.data.size()) return;
    const std::string bytes(f.data.begin() + static_cast<std::ptrdiff_t>(skip), f.data.end());
    if (server_control_.empty() && (bytes.empty() || bytes[0] != 0x00)) return;
    server_control_id_ = id;
    server_control_ += bytes;
    settings_ = parse_server_settings(server_control_);
    return;
  }
  OwnStream* s = own(id);
  if (s == nullptr || (id & 0x3) != 0 || s->ended) return;
  if (!s->response_seen) {
    s->response_seen = true;
    record().responses.push_back(Response{.started = since_connect(Clock::now())});
  }
  if (f.offset == s->head.size() && s->head.size() < kHeadBytes) {
    s->head.append(f.data.begin(),
                   f.data.begin() + static_cast<std::ptrdiff_t>(
                                        std::min(f.data.size(), kHeadBytes - s->head.size())));
  }
  record().bytes_received += f.data.size();
  if (!f.fin) return;
  // Answered whole: a 2xx or 3xx is a bomb the server took; anything else refused it.
  s->ended = true;
  const unsigned status =
      static_status(reinterpret_cast<const std::uint8_t*>(s->head.data()), s->head.size());
  Response& response = record().responses.back();
  response.status = status;
  response.complete = since_connect(Clock::now());
  if (status >= 200 && status < 400) {
    ++h3().streams_answered;
  } else {
    ++h3().streams_refused;
  }
}

void FloodConnection::stream_ended(std::int64_t id, std::uint64_t code, bool stop_sending) {
  OwnStream* s = own(id);
  if (s == nullptr || (id & 0x3) != 0) return;
  H3Record& record = h3();
  if (record.stream_ends.size() < H3Record::kKeptStreamEnds) {
    record.stream_ends.push_back(H3StreamEnd{.at = since_connect(Clock::now()),
                                             .stream = id,
                                             .code = code,
                                             .stop_sending = stop_sending});
  }
  if (s->ended) return;
  s->ended = true;
  ++record.streams_refused;
}

void FloodConnection::server_closed(Ending ending, std::optional<H3Close> close,
                                    std::string error) {
  H3Record& record = h3();
  record.frames_at_close = record.frames_sent;
  if (close) record.close = std::move(close);
  stop();
  end(ending, Clock::now(), std::move(error));
}

bool FloodConnection::is_stateless_reset(std::span<const std::uint8_t> datagram) const {
  if (datagram.size() < 21) return false;
  const auto tail = datagram.last(16);
  return std::ranges::any_of(reset_tokens_, [tail](const std::array<std::uint8_t, 16>& token) {
    return std::ranges::equal(token, tail);
  });
}

}  // namespace loiter::clients::h3
