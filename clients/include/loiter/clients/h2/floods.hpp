// Bounded HTTP/2 floods, each on a connection of its own, and the control client that
// measures what the server still serves meanwhile:
//   h2-rapid-reset         preface and SETTINGS, then HEADERS (GET, END_STREAM) and
//                          RST_STREAM (CANCEL) on each new stream, up to 1,000 pairs, in
//                          batches, reading between them (CVE-2023-44487);
//   h2-continuation-flood  one HEADERS without END_HEADERS, then CONTINUATION frames that
//                          never end the block, each carrying a header field, up to 10,000
//                          frames or 16 MiB (VU#421644);
//   h2-settings-flood      SETTINGS frames, up to 10,000, each costing the server an ACK
//                          (as CVE-2019-9515);
//   h2-ping-flood          PING frames, up to 10,000, each costing the server a PING ACK
//                          (as CVE-2019-9512);
// Every flood reads what the server sent between its batches, waiting up to kBatchGap for
// it: on loopback a batch fits in the socket buffers at once, and a flood that wrote on
// without looking would count megabytes the server never read as frames it let through.
//   h2-control             on a fresh connection, one GET every `interval` for `duration`,
//                          each request's latency taken from its intended send time (a
//                          request that could not go out on time still counts from then).
// A flood stops by itself at its frame count, at `duration` after its connect, at the
// server's GOAWAY, or when the server ends the connection; it then reads until the server
// ends it or `patience` (from connect) runs out, and closes. record.h2->frames_sent counts
// the flood's frames (not the opening's SETTINGS and WINDOW_UPDATE; the few SETTINGS and
// PING acknowledgements it owes, yes) and is current whenever a
// frame is read, so record.h2->goaway->frames_sent says how many had gone out before the
// server's GOAWAY was read (the ping flood, which reads nothing, reads it only once it
// stops: at the server's close, or at the end of its flood). h2-control keeps its latencies
// in record.h2->latencies.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kH2RapidReset = "h2-rapid-reset";
inline constexpr std::string_view kH2ContinuationFlood = "h2-continuation-flood";
inline constexpr std::string_view kH2SettingsFlood = "h2-settings-flood";
inline constexpr std::string_view kH2PingFlood = "h2-ping-flood";
inline constexpr std::string_view kH2Control = "h2-control";

// Each kind's own bound on its flood frames (FloodOptions::frames 0), and the continuation
// flood's on its bytes.
inline constexpr std::size_t kRapidResetPairs = 1'000;
// How long a flood reads between two batches: the server's turn to answer (a batch of 100
// frames a millisecond is still a flood of 100,000 frames a second).
inline constexpr Duration kBatchGap = std::chrono::milliseconds(1);
inline constexpr std::size_t kFloodFrames = 10'000;
inline constexpr std::size_t kContinuationBytes = std::size_t{16} << 20;

struct FloodOptions {
  // count: connections, each one flood (or one control client). From each connect: the flood
  // is over by `duration`; then it reads until the server ends it or `patience` runs out (at
  // least `duration`). tls null: h2c with prior knowledge; set: ALPN must choose h2.
  FleetSpec fleet{.count = 1, .patience = std::chrono::seconds(7)};
  std::string authority = "localhost";
  std::string path = "/health";
  Duration duration = std::chrono::seconds(5);  // the flood (or the control's requests) stop then
  std::size_t frames = 0;            // the flood's frames at most; 0: the kind's own bound
  std::size_t batch = 100;           // flood frames a write
  std::size_t header_bytes = 1'024;  // h2-continuation-flood: header bytes a CONTINUATION carries
  Duration interval = std::chrono::milliseconds(20);  // h2-control: one GET every interval
};

// Each spawns options.count connections of its kind on `io`; run `io` to collect them into
// `out`. std::invalid_argument for a zero batch or interval, or a patience below duration.
void spawn_h2_rapid_reset(asio::io_context& io, const FloodOptions& options,
                          std::vector<ConnectionRecord>& out);
void spawn_h2_continuation_flood(asio::io_context& io, const FloodOptions& options,
                                 std::vector<ConnectionRecord>& out);
void spawn_h2_settings_flood(asio::io_context& io, const FloodOptions& options,
                             std::vector<ConnectionRecord>& out);
void spawn_h2_ping_flood(asio::io_context& io, const FloodOptions& options,
                         std::vector<ConnectionRecord>& out);
void spawn_h2_control(asio::io_context& io, const FloodOptions& options,
                      std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
