// Bounded QUIC and HTTP/3 floods, each on a connection of its own, and the control client that
// measures what the server still serves meanwhile. Each flood makes its handshake with ngtcp2
// (as every h3 kind does), and once the server confirmed it (HANDSHAKE_DONE) hands the
// connection over to loiter's own 1-RTT packets: the keys from the client's own handshake,
// the server's connection ID, packet numbers past ngtcp2's. From then on the flood writes
// whatever frames it likes, acknowledges the server's packets or withholds every ACK, and
// reads the server's packets itself (a QUIC library would not send these frames, nor hold
// its ACKs back).
//   h3-rapid-reset        HEADERS (GET) then RESET_STREAM (H3_REQUEST_CANCELLED) on each new
//                         request stream, as far as the server's MAX_STREAMS credit goes
//                         (CVE-2023-44487 over HTTP/3); two frames a stream;
//   h3-connection-id      NEW_CONNECTION_ID frames, each retiring every earlier one (Retire
//                         Prior To its own sequence number), every ACK withheld, so the
//                         server's RETIRE_CONNECTION_ID frames pile up unacknowledged
//                         (CVE-2024-22189);
//   h3-path-challenge     PATH_CHALLENGE frames, every ACK withheld: PATH_RESPONSEs the
//                         server must keep or drop (CVE-2023-49295);
//   h3-qpack-bomb         on each new request stream a HEADERS frame whose field section,
//                         decoded, is larger than the server's SETTINGS_MAX_FIELD_SECTION_SIZE
//                         (or 64 KiB where it set none): one dynamic-table entry as large as
//                         the server's table takes, referenced over and over, where the
//                         server allows a dynamic table; else literal fields (CVE-2026-40898);
//                         one frame a stream;
//   h3-qpack-blocked      request streams whose HEADERS need a dynamic-table insert that
//                         never comes (Required Insert Count past what was sent), more than
//                         SETTINGS_QPACK_BLOCKED_STREAMS of them (RFC 9204 2.1.2: the server
//                         must close with QPACK_DECOMPRESSION_FAILED); one frame a stream;
//   h3-encoder-stream     encoder-stream instructions without end: an insert as large as the
//                         table, which evicts the one before, again and again, never
//                         referenced; one instruction a frame;
//   h3-out-of-order       CRYPTO frames at ever higher offsets (never the bytes before them),
//                         and STREAM frames at the far end of request streams' windows (never
//                         their first byte): data the server must buffer or refuse;
//   h3-ping-flood         PING frames, one a packet, every ACK withheld;
//   h3-control            on a connection of its own, one GET every `interval` for
//                         `duration`, each request's latency from its intended send time
//                         (record.h3->latencies).
// A flood stops by itself at its frame count, at `duration` after its hand-over, or when
// the server ends the connection (CONNECTION_CLOSE, stateless reset); it then reads for
// `linger` (within `patience` from its first Initial) and closes. record.h3 counts its frames
// (frames_sent, frames_at_close), its streams (opened, refused, answered), what the server
// sent back, and whether it ran out of credit.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "loiter/clients/h3/stalls.hpp"

namespace loiter::clients {

inline constexpr std::string_view kH3RapidReset = "h3-rapid-reset";
inline constexpr std::string_view kH3ConnectionIdFlood = "h3-connection-id";
inline constexpr std::string_view kH3PathChallengeFlood = "h3-path-challenge";
inline constexpr std::string_view kH3QpackBomb = "h3-qpack-bomb";
inline constexpr std::string_view kH3QpackBlocked = "h3-qpack-blocked";
inline constexpr std::string_view kH3EncoderStreamFlood = "h3-encoder-stream";
inline constexpr std::string_view kH3OutOfOrder = "h3-out-of-order";
inline constexpr std::string_view kH3PingFlood = "h3-ping-flood";
inline constexpr std::string_view kH3Control = "h3-control";

// Whether a server must end the flood of `kind` (close the connection, refuse its streams),
// or need only keep what it holds bounded: the RFCs give a server cause to close on rapid
// reset (as over HTTP/2), on connection IDs it cannot retire (RFC 9000 5.1.2), on blocked
// streams past its limit (RFC 9204 2.1.2) and on a field section past its limit (RFC 9114
// 4.2.2); a PATH_CHALLENGE, a PING, an insert on the encoder stream or out-of-order data
// within its windows (RFC 9000 7.5, 8.2) it may simply answer or drop.
inline bool h3_flood_must_end(std::string_view kind) {
  return kind == "h3-rapid-reset" || kind == "h3-connection-id" || kind == "h3-qpack-blocked" ||
         kind == "h3-qpack-bomb";
}

// Each kind's own bound on its flood frames (H3FloodOptions::frames 0).
inline constexpr std::size_t kH3FloodFrames = 10'000;

struct H3FloodOptions {
  // fleet.count connections, each one flood (or one control client); fleet.patience from
  // each first Initial (at least connect_timeout + duration).
  H3Options h3;
  Duration duration = std::chrono::seconds(2);  // the flood (or the control's GETs) stop then
  std::size_t frames = 0;                       // the flood's frames at most; 0: kH3FloodFrames
  std::size_t batch = 20;                       // flood packets a write, then a read
  // Once the flood stopped (its frames, its duration, a second without credit), it reads this
  // long for the server's close, then closes itself (client_close; patience bounds it too).
  Duration linger = std::chrono::milliseconds(1500);
  Duration interval = std::chrono::milliseconds(20);  // h3-control: one GET every interval
};

// Each spawns options.h3.fleet.count connections of its kind on `io`; run `io` to collect
// them into `out`. std::invalid_argument for a zero batch or interval, or a patience below
// connect_timeout + duration.
void spawn_h3_rapid_reset(asio::io_context& io, const H3FloodOptions& options,
                          std::vector<ConnectionRecord>& out);
void spawn_h3_connection_id_flood(asio::io_context& io, const H3FloodOptions& options,
                                  std::vector<ConnectionRecord>& out);
void spawn_h3_path_challenge_flood(asio::io_context& io, const H3FloodOptions& options,
                                   std::vector<ConnectionRecord>& out);
void spawn_h3_qpack_bomb(asio::io_context& io, const H3FloodOptions& options,
                         std::vector<ConnectionRecord>& out);
void spawn_h3_qpack_blocked(asio::io_context& io, const H3FloodOptions& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h3_encoder_stream_flood(asio::io_context& io, const H3FloodOptions& options,
                                   std::vector<ConnectionRecord>& out);
void spawn_h3_out_of_order(asio::io_context& io, const H3FloodOptions& options,
                           std::vector<ConnectionRecord>& out);
void spawn_h3_ping_flood(asio::io_context& io, const H3FloodOptions& options,
                         std::vector<ConnectionRecord>& out);
void spawn_h3_control(asio::io_context& io, const H3FloodOptions& options,
                      std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
