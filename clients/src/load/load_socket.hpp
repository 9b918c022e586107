// What the load engine's links stand on (load_engine.hpp): a socket's opening (the end of
// its non-blocking connect, then over TLS the handshake, offering ALPN when asked) one step
// at a time, its reads (timed by the kernel's receive time in cleartext) and writes, and the
// name a failed read or write is counted under. One machine, so an opening or an error counts
// the same whichever protocol runs on the connection.
#pragma once

#include <cstddef>
#include <span>

#include "load_schedule.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients::load_detail {

// A new non-blocking socket toward the server, bound to the next connection's source address
// (from options.source_offset + the connections opened so far), stamping what it receives
// when `stamped`, connecting and watched (edge-triggered, both ways) in the generator's epoll
// set; -1 on failure. The caller records which of its connections owns it.
int open_load_socket(Schedule& run, bool stamped);

enum class Opening {
  pending,  // the connect or the handshake waits for the socket's next readiness
  open,     // connected (and through TLS): requests may go
  failed,   // `failure` says which step failed
};

struct OpenStep {
  Opening state = Opening::pending;
  const char* failure = nullptr;  // failed: "connect-failed" or "handshake-failed"
};

// One step of opening `fd`, whose connect is under way: on each readiness of the socket.
// Over TLS (`client` not null) the session is made into `tls` once the connect has ended,
// offering only `alpn` (wire format) when it is not empty; `tls` holds it from then on, so a
// connection with a session and no Opening::open yet is handshaking.
OpenStep open_step(const TlsClient& client, int fd, TlsSession& tls,
                   std::span<const unsigned char> alpn = {});

struct SocketIo {
  std::size_t bytes = 0;
  boost::system::error_code ec;  // would_block, eof, or the socket's or the TLS session's
};

// Reads what has come, up to `size` bytes; `at` is when it arrived: the kernel's receive
// time of the read's last segment in cleartext (the socket stamps it: open_load_socket),
// the time of the read over TLS.
SocketIo read_some(int fd, ssl_st* tls, char* data, std::size_t size, Clock::time_point& at);

// Writes what the socket takes now. Over TLS a write that must wait is repeated with the same
// bytes (OpenSSL's rule), and one that goes takes them all.
SocketIo send_some(int fd, ssl_st* tls, const char* data, std::size_t size);

// A failed read or write, named for the tallies: "closed" (the server's FIN or close_notify),
// "reset", "refused", "tls" (an alert, a bad record) or "other".
const char* io_error_kind(const boost::system::error_code& ec);

}  // namespace loiter::clients::load_detail
