// The handshake stalls: clients that leave a TLS listener's handshake unfinished, and one
// that finishes it and then says nothing. The first three connect over plain TCP (no TLS in
// the transport) and send the bytes of a real ClientHello themselves:
//   tls-record-header   its 5-byte record header, then nothing;
//   tls-half-hello      its first half, then nothing;
//   tls-hello-trickle   its first byte, then one byte per interval on the connection's own
//                       timeline from its connect, never the last byte;
// each then reads until the server ends the connection or patience runs out. Their record's
// sends say what was sent when, and record.tls says how far the handshake got
// (handshake_sent; never handshake_done). An alert the server sends them arrives as bytes
// (bytes_received), not decoded: their ending is the close that follows.
//   tls-handshake-silent completes the handshake over the fleet's TLS (options.tls), then
//                       sends nothing, like silent after the handshake.
//   tls-late-head        connects, starts the handshake (the fleet's TLS) only `delay`
//                       later, completes it, then sends half a request head and nothing
//                       more: a header deadline that runs from connect ends it `header` after
//                       the connect, one that runs from the handshake `header` after that
//                       (record.tls->handshake_done says when).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"
#include "loiter/clients/transport/tls.hpp"

namespace loiter::clients {

inline constexpr std::string_view kTlsRecordHeader = "tls-record-header";
inline constexpr std::string_view kTlsHalfHello = "tls-half-hello";
inline constexpr std::string_view kTlsHelloTrickle = "tls-hello-trickle";
inline constexpr std::string_view kTlsHandshakeSilent = "tls-handshake-silent";
inline constexpr std::string_view kTlsLateHead = "tls-late-head";

struct TlsStallOptions {
  FleetSpec fleet;             // its tls: tls-handshake-silent's; the raw kinds speak plain TCP
  TlsSettings hello_settings;  // the raw kinds' ClientHello: its ALPN and SNI
  std::string hello;  // the ClientHello they send; empty: client_hello(hello_settings) at spawn
  Duration interval = std::chrono::seconds(1);  // tls-hello-trickle: between hello bytes
  Duration delay = std::chrono::seconds(1);     // tls-late-head: connect to the handshake
  std::string path = "/health";                 // tls-late-head: its half head's path
};

// Each spawns options.count connections of its kind on `io`; run `io` to collect them into
// `out`. The raw kinds make the ClientHello once for the fleet (client_hello.hpp throws
// std::runtime_error if it cannot be made). tls-handshake-silent and tls-late-head throw
// std::invalid_argument without options.tls.
void spawn_tls_record_header(asio::io_context& io, const TlsStallOptions& options,
                             std::vector<ConnectionRecord>& out);
void spawn_tls_half_hello(asio::io_context& io, const TlsStallOptions& options,
                          std::vector<ConnectionRecord>& out);
void spawn_tls_hello_trickle(asio::io_context& io, const TlsStallOptions& options,
                             std::vector<ConnectionRecord>& out);
void spawn_tls_handshake_silent(asio::io_context& io, const TlsStallOptions& options,
                                std::vector<ConnectionRecord>& out);
void spawn_tls_late_head(asio::io_context& io, const TlsStallOptions& options,
                         std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
