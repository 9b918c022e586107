// A client's TLS session over a connection's own non-blocking socket: OpenSSL's SSL object
// on a small BIO of ours that reads and writes the descriptor directly (send with
// MSG_NOSIGNAL: a write after the server's reset is an error, not a SIGPIPE). Every call here
// is non-blocking; `tls_drive` waits for the readiness a call asks for with the socket's own
// async_wait, so the connection's deadlines (the deadline queue, the load's watchdog) cancel
// it as they cancel any wait. Private to loiter::clients.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/tls.hpp"

namespace loiter::clients {

// A client session on `fd` (connected). `record`, when not null, receives the description of
// a fatal alert the server sends (TlsRecord::alert) and must outlive the session.
TlsSession new_tls_session(const TlsContext& context, int fd, TlsRecord* record);

// What one non-blocking TLS call came to. `ec`: would_block (wait for readability, or for
// writability when `wants_write`), eof (close_notify, or a FIN), the socket's error
// (connection_reset, broken_pipe…), or a TLS error (an alert received: see TlsRecord::alert).
struct TlsResult {
  std::size_t bytes = 0;
  boost::system::error_code ec;
  bool wants_write = false;
};

TlsResult tls_handshake_step(ssl_st* ssl);
TlsResult tls_read(ssl_st* ssl, char* data, std::size_t size);
TlsResult tls_write(ssl_st* ssl, const char* data, std::size_t size);
// Decrypted bytes (or a whole record) already buffered: readable without waiting.
bool tls_pending(ssl_st* ssl);
// The handshake completed: application data flows through the session.
bool tls_established(ssl_st* ssl);
// Bytes the server sent before the handshake started (nothing to decrypt yet): counted as
// handshake bytes, and a fatal alert among them noted in `record`.
void tls_note_raw(TlsRecord& record, const char* data, std::size_t size);
// Sends close_notify if the socket takes it now; never waits for the server's.
void tls_close_notify(ssl_st* ssl);
// Bytes through the socket so far (TLS records, not application bytes).
std::size_t tls_bytes_sent(ssl_st* ssl);
std::size_t tls_bytes_received(ssl_st* ssl);
std::string tls_version(ssl_st* ssl);  // "TLSv1.3"
std::string tls_alpn(ssl_st* ssl);     // the server's choice; empty: none

// Repeats `step` (a TlsResult()) until it does not ask to wait, waiting for the readiness it
// asks for. A cancelled wait (the deadline came) returns operation_aborted; so does a call
// at or after `until`, so a deadline that fired between two waits is not missed.
template <typename Step>
awaitable<TlsResult> tls_drive(Socket& socket, Step step,
                               Clock::time_point until = Clock::time_point::max()) {
  for (;;) {  // bounded: each turn completes, fails, or waits until `until` at most
    TlsResult result = step();
    if (result.ec != asio::error::would_block) co_return result;
    if (Clock::now() >= until) co_return TlsResult{.ec = asio::error::operation_aborted};
    const auto [ec] = co_await socket.async_wait(
        result.wants_write ? Socket::wait_write : Socket::wait_read, as_values);
    if (ec) co_return TlsResult{.ec = ec};
  }
}

}  // namespace loiter::clients
