// The HTTP/2 connection-lifecycle clients: each speaks h2 with prior knowledge in
// cleartext, or over the fleet's TLS (options.tls, ALPN "h2"), and stalls somewhere only
// HTTP/2 has, or makes a legitimate slow exchange the server must not cut:
//   h2-partial-preface   16 of the 24 preface bytes, then nothing;
//   h2-no-settings-ack   preface and SETTINGS; the server's SETTINGS never acknowledged;
//   h2-idle              one stream (GET path) served whole, then nothing;
//   h2-headers-no-end    HEADERS without END_HEADERS, and no CONTINUATION after it;
//   h2-data-trickle      a POST to echo_path whose DATA comes a byte per interval, never
//                        its last byte;
//   h2-zero-window       INITIAL_WINDOW_SIZE 0 (connection window never opened), GET
//                        large_path: the server can send nothing and must give up;
//   h2-window-trickle    its must-not-cut twin: the same GET, a window_increment-byte
//                        WINDOW_UPDATE (stream and connection) every interval until whole;
//   h2-stream-reuse      one stream served, a second one reuse_after later: served too.
// and the must-not-cut exchanges of HTTP/1.1 as h2 streams, each on stream 1 beside short
// GETs (path) the connection opens on its other streams every beside_every meanwhile, at
// most beside_most, each of which must be answered too:
//   h2-long-response     GET long_path (a slow handler), read at once;
//   h2-stream            GET long_path (a streamed response), read at once;
//   h2-slow-reader       h2-window-trickle's GET of large_path, its window opened
//                        window_increment bytes every interval until whole.
// Every kind but h2-no-settings-ack acknowledges the server's SETTINGS and answers its PINGs
// (h2-headers-no-end leaves its header block open only after acknowledging the SETTINGS,
// and then answers nothing: no frame but a CONTINUATION may follow, RFC 9113 6.10).
// Each then reads until the server ends the connection or patience runs out; record.h2 says
// what the server's frames said (GOAWAY, RST_STREAM), record.responses holds one response a
// stream.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kH2PartialPreface = "h2-partial-preface";
inline constexpr std::string_view kH2NoSettingsAck = "h2-no-settings-ack";
inline constexpr std::string_view kH2Idle = "h2-idle";
inline constexpr std::string_view kH2HeadersNoEnd = "h2-headers-no-end";
inline constexpr std::string_view kH2DataTrickle = "h2-data-trickle";
inline constexpr std::string_view kH2ZeroWindow = "h2-zero-window";
inline constexpr std::string_view kH2WindowTrickle = "h2-window-trickle";
inline constexpr std::string_view kH2StreamReuse = "h2-stream-reuse";
inline constexpr std::string_view kH2LongResponse = "h2-long-response";
inline constexpr std::string_view kH2Stream = "h2-stream";
inline constexpr std::string_view kH2SlowReader = "h2-slow-reader";

struct H2Options {
  FleetSpec fleet;  // tls null: h2c with prior knowledge; set: ALPN must choose h2
  std::string authority = "localhost";
  std::string path = "/health";  // h2-idle, h2-stream-reuse, h2-headers-no-end
  std::string echo_path;         // h2-data-trickle: a path that reads a request body
  std::string large_path;        // h2-zero-window, h2-window-trickle: a large response
  std::size_t body_bytes = 64;   // h2-data-trickle: the declared content-length
  Duration interval = std::chrono::milliseconds(100);  // trickle and window-update pace
  std::size_t window_increment = 1024;                 // h2-window-trickle
  Duration reuse_after = std::chrono::seconds(1);      // h2-stream-reuse: the second stream
  std::string long_path;  // h2-long-response, h2-stream: the long exchange
  // h2-long-response, h2-stream, h2-slow-reader: a GET of path on a new stream this often
  // while the long one runs, at most beside_most times.
  Duration beside_every = std::chrono::seconds(1);
  std::size_t beside_most = 64;
};

// Each spawns options.count connections of its kind on `io`; run `io` to collect them into
// `out`. h2-data-trickle needs echo_path; h2-zero-window and h2-window-trickle large_path
// (std::invalid_argument otherwise).
void spawn_h2_partial_preface(asio::io_context& io, const H2Options& options,
                              std::vector<ConnectionRecord>& out);
void spawn_h2_no_settings_ack(asio::io_context& io, const H2Options& options,
                              std::vector<ConnectionRecord>& out);
void spawn_h2_idle(asio::io_context& io, const H2Options& options,
                   std::vector<ConnectionRecord>& out);
void spawn_h2_headers_no_end(asio::io_context& io, const H2Options& options,
                             std::vector<ConnectionRecord>& out);
void spawn_h2_data_trickle(asio::io_context& io, const H2Options& options,
                           std::vector<ConnectionRecord>& out);
void spawn_h2_zero_window(asio::io_context& io, const H2Options& options,
                          std::vector<ConnectionRecord>& out);
void spawn_h2_window_trickle(asio::io_context& io, const H2Options& options,
                             std::vector<ConnectionRecord>& out);
void spawn_h2_stream_reuse(asio::io_context& io, const H2Options& options,
                           std::vector<ConnectionRecord>& out);
// h2-long-response and h2-stream need long_path, h2-slow-reader large_path
// (std::invalid_argument otherwise).
void spawn_h2_long_response(asio::io_context& io, const H2Options& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h2_stream(asio::io_context& io, const H2Options& options,
                     std::vector<ConnectionRecord>& out);
void spawn_h2_slow_reader(asio::io_context& io, const H2Options& options,
                          std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
