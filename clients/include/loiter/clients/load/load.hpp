// The open-loop load generator: sends one pre-built request on an absolute timeline
// (request i is due at start + i / rate) over a pool of keep-alive connections, reads each
// whole response with Beast, and records latency both from the intended send time
// (coordinated-omission-free, as wrk2 does) and from the actual write. When every connection
// is busy, the next due request waits for the first free one and its lateness shows in the
// latency from intended. Transport errors are counted by kind and the connection reconnects.
// rate = 0 is a closed loop: each connection sends again as soon as its response is whole.
// The generator wakes when a request is due (or once per `tick`), not for every answer: an
// answer that comes while a send is near is read at that send's wake and timed by the
// kernel's receive timestamp (cleartext; over TLS answers are read as they come).
// With tls, each pool connection makes its TLS handshake at every (re)connect, bounded by
// request_timeout, before it takes requests again; latency stays from the intended send time.
// With LoadProtocol::h2 the same schedule runs as HTTP/2 streams over the pool: one engine,
// the protocol its exchange (clients/src/load/load_engine.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/load/churn.hpp"
#include "loiter/clients/load/load_result.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/share.hpp"
#include "loiter/clients/transport/tls.hpp"

namespace loiter::clients {

// The kind of request `index` under `churn` (pure: the generator and its tests agree).
enum class RequestKind { pooled, fresh, server_close, abort };
RequestKind request_kind(const Churn& churn, std::uint64_t index);

// What the requests go as: HTTP/1.1 (cleartext or over TLS), HTTP/2 (h2c with prior
// knowledge, or ALPN "h2" over TLS), or HTTP/3 over QUIC (UDP to the server's port).
enum class LoadProtocol { http1, h2, h3 };

struct LoadOptions {
  tcp::endpoint server;
  double rate = 5000.0;  // requests/s on the absolute timeline; 0 = closed loop
  Duration duration = std::chrono::seconds(25);
  std::size_t connections = 32;  // keep-alive pool, as in the seed
  std::string method = "GET";
  std::string path = "/health";
  std::string body;                                    // sent with Content-Length when non-empty
  Duration request_timeout = std::chrono::seconds(5);  // no whole response by then: error "timeout"
  Clock::time_point start =
      Clock::now();               // t0 of the timeline: request i is due at start + i / rate
  std::size_t source_offset = 0;  // first index given to source_for() (127.0.0.2 + …)
  unsigned source_block = 0;      // sources from 127.<source_block>.0.2 on (FleetSpec's)
  bool allow_non_loopback = false;
  std::optional<asio::ip::address> allowed_remote;  // the one remote allowed (FleetSpec's)
  // A request due before start + duration that is still unsent at start + duration +
  // send_grace is never sent (it stays requested, not dispatched).
  Duration send_grace = std::chrono::seconds(1);
  TlsClient tls;  // null: cleartext
  // The pacing's resolution: the generator wakes at most once per tick (on a grid from
  // start), and each wake sends every request due by then, never earlier; 0 wakes it when
  // each request is due. A wake is the dearest thing the generator does (each costs ~17 us
  // of CPU on a small VM): at 5,000/s the 1 ms tick halves its CPU, and a request is up to
  // 1 ms late, which its latency from intended includes. wrk2 and h2load pace at about a
  // millisecond too. Whatever the tick, no millisecond dispatches more than twice the
  // rate's mean: a wake that came late (the machine took the core away) spreads its
  // catch-up over the next milliseconds rather than bursting.
  Duration tick = std::chrono::milliseconds(1);
  Churn churn;
  // This shard's share of the schedule (loiter check --shard k/K): only the requests n with
  // n % parts == part are taken, each at its own due time on the whole schedule, so K shards
  // together send what one would; every count of the result is the share's. The burst cap
  // follows the share's rate. Ignored by a closed loop.
  FleetShare share;
  // Latency from intended of the requests due in the first and in the last `edge_window` of
  // the schedule is also kept apart (LoadResult::first_window, ::last_window); 0: not kept.
  Duration edge_window{};
  // Asked before each request is taken: once true, the schedule ends there (what was taken
  // still runs to its answer or its timeout) and the result says so. The user's Ctrl-C in a
  // soak; empty: the schedule runs to its end.
  std::function<bool()> stop_early;
  // LoadProtocol::h2: each request is a stream, multiplexed on the `connections`
  // connections (cleartext: h2c with prior knowledge; over tls the session offers only ALPN
  // "h2", and a server that does not choose it fails each connect as error "alpn"). The
  // same schedule, pacing, tallies and result. A connection takes streams once the server's
  // SETTINGS came, never more at once than its SETTINGS_MAX_CONCURRENT_STREAMS: a due request
  // with no stream slot anywhere waits, and its lateness shows in its latency from intended.
  // The client announces SETTINGS_INITIAL_WINDOW_SIZE 2^31-1 and opens the connection's
  // window as wide. A stream the server resets counts as error "rst:<CODE NAME>" (REFUSED_STREAM:
  // "refused"); a stream's answer succeeds with a 2xx :status and END_STREAM. A GOAWAY is not
  // a request's error: it is counted in LoadResult::goaways, the streams above its
  // last_stream_id go again on another connection (dispatched once; latency still from
  // intended), those at or below run to their end, and the client then closes the
  // connection and opens another. A stream is dispatched when its HEADERS go to the socket
  // (only ever with a free slot); request_timeout runs per stream (then RST_STREAM(CANCEL),
  // error "timeout"). In a closed loop every connection is kept full to the server's limit. Churn
  // over h2: `fresh` sends the stream on a connection of its own that the client closes after the
  // answer; `abort` sends RST_STREAM(CANCEL) once the answer's HEADERS came; `replace_every` stops
  // opening streams on a connection after N and closes it (a FIN, no GOAWAY) once they ended;
  // `server_close` streams go as pooled ones (HTTP/2 has no "Connection: close"), and
  // LoadResult::server_closed counts the connections the server ended with a GOAWAY.
  // LoadProtocol::h3: each request is a stream on one of `connections` QUIC connections to
  // the server's UDP port (`server`), each its own UDP socket from the next source address;
  // TLS 1.3 is QUIC's own (GnuTLS, ALPN "h3", SNI server_name, no certificate check: `tls`
  // is not used). A connection takes streams once its handshake is done (by request_timeout:
  // else error "handshake-failed"), never more than the server's MAX_STREAMS credit allows
  // (a due request with no credit anywhere waits, as over HTTP/2). A stream succeeds with a
  // 2xx :status and its FIN; the server's RESET_STREAM counts as error "rst:<H3 code name>"
  // (H3_REQUEST_REJECTED: "refused"). The server's CONNECTION_CLOSE is counted by its code in
  // LoadResult::closes (a stateless reset as "stateless reset", ngtcp2's idle timeout as "idle
  // timeout") and the connection's unfinished streams fail as "closed" ("idle-closed"); a
  // GOAWAY is counted in goaways as "GOAWAY", the streams from its id on go again elsewhere.
  // request_timeout runs per stream (then the client resets it with H3_REQUEST_CANCELLED,
  // error "timeout"). Churn as over HTTP/2: `fresh` a connection (and handshake) of its own,
  // closed by the client's CONNECTION_CLOSE after the answer; `abort` the stream reset once
  // the answer's HEADERS came; `replace_every` a connection closed after N streams ended;
  // `server_close` goes as pooled.
  LoadProtocol protocol = LoadProtocol::http1;
  std::string server_name = "localhost";  // HTTP/3: the SNI; empty: none
};

// Spawns the generator on `io`; `out` is complete once io has run (the generator stops by
// itself: the schedule ends at start + duration, outstanding requests get request_timeout).
// Throws std::invalid_argument for a non-loopback server (unless allowed), a negative rate,
// an empty pool, or churn shares outside [0, 1] or adding up to more than 1.
void spawn_load(asio::io_context& io, const LoadOptions& options, LoadResult& out);

}  // namespace loiter::clients
