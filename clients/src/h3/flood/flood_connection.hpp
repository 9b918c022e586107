// What every h3 flood shares after its hand-over (QuicConnection::HandOver): loiter's own
// 1-RTT packets (short header, key phase 0, packet numbers past ngtcp2's), the server's read
// back and its frames taken in (credit, stream ends, CONNECTION_CLOSE, what it sent back),
// the ACKs it is owed or withheld, the client's own stream bytes (split over packets, within
// the server's flow control), and the flood's loop: `batch` packets, a read, again, until
// its frame count, its duration, the server's close, or a second without credit.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "h3/initial/short_packet.hpp"
#include "h3/quic_connection.hpp"
#include "loiter/clients/h3/floods.hpp"
#include "loiter/quic/frames.hpp"

namespace loiter::clients::h3 {

// The server's SETTINGS (RFC 9114 7.2.4.1, RFC 9204 5) as the floods need them.
struct ServerSettings {
  bool seen = false;
  std::uint64_t table_capacity = 0;                     // SETTINGS_QPACK_MAX_TABLE_CAPACITY
  std::optional<std::uint64_t> max_field_section_size;  // nullopt: unlimited
  std::uint64_t blocked_streams = 0;                    // SETTINGS_QPACK_BLOCKED_STREAMS
};

// Parses a server control stream's bytes (stream type 0x00, then its SETTINGS frame).
ServerSettings parse_server_settings(std::string_view control);

class FloodConnection : public QuicConnection {
 public:
  FloodConnection(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
                  ConnectionRecord& record, std::string_view kind, bool withhold_acks);

 protected:
  // The kind's opening once handed over (streams of its own: control, QPACK encoder).
  virtual void open_flood() {}
  // Adds the flood's next frames to `payload` while `room` bytes last, counting them in
  // `added`; false when it cannot go on for now (no credit: the loop waits for some).
  virtual bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) = 0;

  // For the kinds.
  const HandOver& link() const { return link_; }
  const ServerSettings& settings() const { return settings_; }
  const H3FloodOptions& flood() const { return *flood_; }
  // The next request stream, or nullopt when the server's MAX_STREAMS allows none now.
  std::optional<std::int64_t> open_bidi();
  // Opens a unidirectional stream of `type` (0x00 control, 0x02 QPACK encoder); -1: none allowed.
  std::int64_t open_uni(std::uint8_t type);
  // Queues `bytes` on `stream` (sent before any flood frame, over as many packets as they
  // take); false, and nothing queued, when the connection's or the stream's credit lacks.
  bool queue(std::int64_t stream, std::string bytes, bool fin);
  // Takes `bytes` of connection credit for data the kind writes itself (a STREAM frame far
  // into a window counts up to its end); false when there is not that much.
  bool take_credit(std::uint64_t bytes);
  // The flood's frames fit in this much of a packet (its payload counted from empty).
  std::size_t room_in_packet() const;
  // The flood's frames it may still send (its bound less those sent).
  std::size_t frames_left() const;
  // Stream bytes queued and not yet sent.
  bool sending() const { return !pending_.empty(); }

 private:
  struct OwnStream {
    std::int64_t id = 0;
    std::uint64_t offset = 0;  // bytes queued so far
    std::uint64_t limit = 0;   // MAX_STREAM_DATA
    bool response_seen = false;
    bool ended = false;  // answered whole, reset or stopped: counted once
    std::string head;    // its response's first bytes (the HEADERS frame's status)
  };
  struct Chunk {
    std::int64_t stream = 0;
    std::uint64_t offset = 0;
    std::string bytes;
    std::size_t sent = 0;
    bool fin = false;
  };

  bool hands_over() const override { return true; }
  void on_handed_over(HandOver hand_over) override;
  void on_own_datagram(std::span<const std::uint8_t> datagram) override;
  void on_own_deadline() override;

  void step();
  void stop();
  bool send_packet(quic::Bytes payload);
  void add_ack(quic::Bytes& payload);
  void add_pending(quic::Bytes& payload);
  void received(std::uint64_t packet_number);
  void take_frames(std::span<const std::uint8_t> payload, bool& ack_eliciting);
  void take_stream(const quic::Frame& frame);
  void stream_ended(std::int64_t id, std::uint64_t code, bool stop_sending);
  void server_closed(Ending ending, std::optional<H3Close> close, std::string error);
  OwnStream* own(std::int64_t id);
  bool is_stateless_reset(std::span<const std::uint8_t> datagram) const;

  std::shared_ptr<const H3FloodOptions> flood_;
  bool withhold_acks_;
  HandOver link_;
  h3init::PacketKeys tx_;
  h3init::PacketKeys rx_;
  ServerSettings settings_;
  std::uint64_t next_packet_ = 0;
  std::uint64_t largest_received_ = 0;
  bool received_any_ = false;
  bool ack_owed_ = false;                    // an ack-eliciting packet came since the last ACK
  std::vector<quic::PacketRange> received_;  // largest first, at most kKeptRanges
  std::uint64_t max_data_ = 0;               // the server's connection credit (absolute)
  std::uint64_t data_sent_ = 0;              // stream bytes counted against it
  std::uint64_t max_bidi_ = 0;               // MAX_STREAMS (bidi), absolute
  std::uint64_t bidi_opened_ = 0;
  std::uint64_t max_uni_ = 0;
  std::uint64_t uni_opened_ = 0;
  std::vector<OwnStream> streams_own_;
  std::deque<Chunk> pending_;
  std::vector<std::array<std::uint8_t, 16>> reset_tokens_;
  std::string server_control_;  // the server's control stream's bytes (its SETTINGS)
  std::int64_t server_control_id_ = -1;
  std::size_t limit_ = 0;  // the flood's frames at most
  Clock::time_point until_{};
  std::optional<Clock::time_point> stalled_since_;
  Clock::time_point handed_over_at_{};
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace loiter::clients::h3
