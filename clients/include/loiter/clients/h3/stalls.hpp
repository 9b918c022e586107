// The HTTP/3 connection-lifecycle clients (QUIC v1 over UDP, TLS 1.3 inside, ALPN "h3"):
// each stalls somewhere only QUIC and HTTP/3 have, or makes a legitimate slow exchange the
// server must not cut. Over UDP there is no socket state to look at: what ended a connection
// or a stream is what the client saw (record.h3: CONNECTION_CLOSE and its code, a stateless
// reset, RESET_STREAM / STOP_SENDING, a 408, or no answer to a probe).
//   h3-initial-stall    a hand-built client Initial whose CRYPTO frame carries only the
//                       first initial_bytes of a ClientHello, then nothing; at probe_after a
//                       second Initial (a PING, same connection IDs, next packet number)
//                       asks whether the server still holds the half-open connection;
//   h3-amplification    one whole hand-built Initial (a ClientHello with the QUIC transport
//                       parameters), then silence: every byte the server sends before it
//                       gives up is counted (RFC 9000 8.1: at most 3x what it received);
//   h3-idle             handshake done, SETTINGS sent, then nothing; one PING probe_after
//                       the client's last packet: an answer means the connection was
//                       still there (no answer within three PTOs: Ending::gone);
//   h3-headers-stall    a request stream whose HEADERS frame stops halfway (frame type and
//                       length sent, half the field section), PINGs every keepalive;
//   h3-headers-trickle  a request stream whose HEADERS frame header (type and length) goes
//                       first, then one byte of its field section every interval, never the
//                       last byte; PINGs every keepalive;
//   h3-data-trickle     a POST to echo_path declaring body_bytes, its DATA a byte every
//                       interval, never the last byte; PINGs every keepalive;
//   h3-zero-window      GET large_path on a connection whose stream flow-control window for
//                       the server's data is never extended beyond what the transport
//                       parameters gave (initial_stream_window bytes); PINGs every keepalive;
//   h3-window-trickle   its must-not-cut twin: the same GET, the window extended by
//                       window_increment bytes every interval until the response is whole;
//   h3-control-close    SETTINGS on its control stream, then the control stream closed
//                       (FIN): the server must close the connection with
//                       H3_CLOSED_CRITICAL_STREAM (RFC 9114 6.2.1);
//   h3-long-response    GET long_path (a slow handler), read at once;
//   h3-stream           GET long_path (a streamed response), read at once.
// Every kind but the hand-built two reads until the server ends the connection (or the
// stream the kind stalls, for the stream kinds: then it closes the connection itself) or
// patience runs out.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"

namespace loiter::clients {

inline constexpr std::string_view kH3InitialStall = "h3-initial-stall";
inline constexpr std::string_view kH3Amplification = "h3-amplification";
inline constexpr std::string_view kH3Idle = "h3-idle";
inline constexpr std::string_view kH3HeadersStall = "h3-headers-stall";
inline constexpr std::string_view kH3HeadersTrickle = "h3-headers-trickle";
inline constexpr std::string_view kH3DataTrickle = "h3-data-trickle";
inline constexpr std::string_view kH3ZeroWindow = "h3-zero-window";
inline constexpr std::string_view kH3WindowTrickle = "h3-window-trickle";
inline constexpr std::string_view kH3ControlClose = "h3-control-close";
inline constexpr std::string_view kH3LongResponse = "h3-long-response";
inline constexpr std::string_view kH3Stream = "h3-stream";
inline constexpr std::string_view kH3HeldRecheck = "h3-held-recheck";

struct H3Options {
  // fleet.target: the server's UDP endpoint (address and port); fleet.tls is not used (QUIC
  // brings its own TLS 1.3: GnuTLS, no certificate check, ALPN "h3"). count, patience,
  // pacing, sources, share: as for TCP kinds. connect_timeout bounds the handshake.
  FleetSpec fleet;
  std::string server_name = "localhost";  // SNI; empty: none
  std::string authority = "localhost";    // :authority
  std::string path = "/health";           // h3-idle's and the readiness GET
  std::string echo_path;                  // h3-data-trickle
  std::string large_path;                 // h3-zero-window, h3-window-trickle
  std::string long_path;                  // h3-long-response, h3-stream
  std::size_t body_bytes = 64;            // h3-data-trickle: the declared content-length
  // h3-headers-trickle: a filler field of this many bytes of value in the field section
  // (which is ~25 bytes without it); nullopt: enough for a byte every interval to last the
  // patience (at most 16 KiB, within the 32 KiB a server commonly takes).
  std::optional<std::size_t> header_padding;
  Duration interval = std::chrono::milliseconds(100);   // trickle and window pace
  Duration keepalive = std::chrono::milliseconds(500);  // a PING this often on stalled kinds
  std::size_t initial_stream_window = 1024;             // h3-zero-window, h3-window-trickle
  std::size_t window_increment = 1024;                  // h3-window-trickle
  // h3-idle, h3-initial-stall: the probe goes this long after the client's last packet
  // (h3-initial-stall: its Initial; h3-idle: its last ACK after the handshake), timed again
  // if the client had to send meanwhile; nullopt: no probe (the kind waits out its patience).
  std::optional<Duration> probe_after;
  // h3-idle: connections of odd index probe this long after their last packet instead,
  // before the deadline; answered, such a connection closes itself (client_close): the
  // server had not forgotten it early. Unanswered within three PTOs: gone.
  std::optional<Duration> early_probe_after;
  // h3-idle, h3-initial-stall: connection i probes probe_ladder[i] after (as probe_after,
  // which it overrides, and early_probe_after with it) where the ladder has an entry for it;
  // `loiter survey` brackets a deadline it does not know with one probe time per connection.
  std::vector<Duration> probe_ladder;
  std::size_t initial_bytes = 100;  // h3-initial-stall: the ClientHello bytes sent
  // h3-held-recheck: the second request (every connection's at once), then the client's close.
  Clock::time_point recheck_at{};
  Clock::time_point release_at{};
};

// Each spawns options.fleet.count connections of its kind on `io`; run `io` to collect them
// into `out`. Throws std::invalid_argument when a path the kind needs is empty.
void spawn_h3_initial_stall(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h3_amplification(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h3_idle(asio::io_context& io, const H3Options& options,
                   std::vector<ConnectionRecord>& out);
void spawn_h3_headers_stall(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h3_headers_trickle(asio::io_context& io, const H3Options& options,
                              std::vector<ConnectionRecord>& out);
void spawn_h3_data_trickle(asio::io_context& io, const H3Options& options,
                           std::vector<ConnectionRecord>& out);
void spawn_h3_zero_window(asio::io_context& io, const H3Options& options,
                          std::vector<ConnectionRecord>& out);
void spawn_h3_window_trickle(asio::io_context& io, const H3Options& options,
                             std::vector<ConnectionRecord>& out);
void spawn_h3_control_close(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h3_long_response(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out);
void spawn_h3_stream(asio::io_context& io, const H3Options& options,
                     std::vector<ConnectionRecord>& out);
// held-capacity's client over HTTP/3: GET path answered whole (a handshake alone is not a
// working connection), the connection held until recheck_at, a second GET on it then (the
// re-check, on a new stream), held again until release_at, and closed by the client
// (CONNECTION_CLOSE H3_NO_ERROR). Quiet while held: the plan keeps every hold under the idle
// timeout.
void spawn_h3_held_recheck(asio::io_context& io, const H3Options& options,
                           std::vector<ConnectionRecord>& out);

// One HTTP/3 GET of options.path on a connection of its own (readiness, the benchmark):
// the response's status, or nullopt when none came within `timeout`; `error` (if given)
// says why. Runs its own io_context; blocking.
std::optional<unsigned> h3_get(const H3Options& options, Duration timeout,
                               std::string* error = nullptr);

}  // namespace loiter::clients
