// A client connection under observation: its socket and its record. Every client behaviour
// is a short coroutine over these steps: connect, send, read while waiting, end; its long
// waits (holding) hand the connection over to be held outside any coroutine frame and
// outside Asio's reactor, so a held connection costs under 0.5 KiB with its record
// (hold_until_closed, hold_until).
// The connection always keeps a read outstanding while it waits, so the record says when
// and how the server ended it, whatever the client was doing. Nothing here throws for what
// the server does; a reset, an EOF, a 408, a fatal TLS alert are data.
//
// Over TLS (ConnectPlan::tls) the same steps go through an OpenSSL session on the same
// non-blocking socket, driven by the same readiness waits and deadlines: a send is one
// SSL_write (one TLS record), a read reads through SSL_read until it wants more. The record
// counts application bytes only: bytes_received, first_byte and the responses are
// decrypted HTTP; the handshake's bytes are in TlsRecord, and TLS 1.3 session tickets the
// server sends after it are in neither. A session costs the connection one pointer here and
// OpenSSL's SSL object on the heap, its record buffers released while idle
// (SSL_MODE_RELEASE_BUFFERS). Measured, 2,000 idle-keepalive connections held after their
// response against a TLS 1.3 peer that sends two session tickets: 29.8 KiB of client RSS a
// connection, against 1.4 KiB in cleartext (35.6 KiB without releasing the buffers; 20.7 KiB
// when the server sends no ticket; 19.7 KiB over TLS 1.2).
// Until its handshake has completed, a TLS connection sends and reads raw bytes (a client
// that stalls the handshake writes its own), counted in TlsRecord; a fatal alert among them
// is noted there too.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include "loiter/clients/h2/session_reader.hpp"
#include "loiter/clients/http1/response_reader.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/tls.hpp"

namespace loiter::clients {

// How and when one connection connects.
struct ConnectPlan {
  tcp::endpoint target;
  asio::ip::address source;  // unspecified: the kernel chooses
  Clock::time_point start;   // the connect starts then (its slot on the fleet's timeline)
  Duration timeout = std::chrono::seconds(5);
  int receive_buffer = 0;  // SO_RCVBUF set before connect; 0 keeps the default
  // TLS: a session over the connection (record.tls set); null: cleartext. It must outlive
  // the connection.
  const TlsContext* tls = nullptr;
  // With tls: connect() completes the handshake within `timeout` (from the connect's
  // start); false leaves a TLS connection that has not started it (it sends nothing).
  bool handshake = true;
};

// What a wait came to.
enum class Wait {
  done,      // the awaited responses are whole
  deadline,  // the time came and the connection is still open
  ended,     // the server ended the connection first (recorded; the socket is closed)
};

class Connection {
 public:
  static constexpr std::size_t kAnyResponses = std::numeric_limits<std::size_t>::max();

  // Writes into `record` as the connection goes; `record` must outlive the connection.
  // `hold_after_close`: after the server's close, keep the socket this long before closing
  // it, so a test can see the server's FIN_WAIT2.
  Connection(Executor executor, ConnectionRecord& record, std::string_view kind,
             Duration hold_after_close = {});
  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;

  // Waits for plan.start, then connects from plan.source. False if it did not connect
  // within plan.timeout; the record then ends as connect_failed with the reason. With
  // plan.tls and plan.handshake, then makes the TLS handshake, by the same timeout: false
  // if the server ended it first (recorded as its ending: close, reset or alert) or if the
  // time ran out (the ending stays `open`, the error says so, the client closes).
  awaitable<bool> connect(const ConnectPlan& plan);

  // The TLS handshake of a connection made with plan.handshake false, as connect() makes
  // it, giving up at `until`.
  awaitable<bool> handshake(Clock::time_point until);

  // Sends all of `bytes` (giving up at `until`) and records when it started;
  // `completes_request` counts a request as sent. False if the send failed: the server has
  // ended the connection, and the next read records how.
  awaitable<bool> send(std::string_view bytes, Clock::time_point until,
                       bool completes_request = false);

  // Reads whatever arrives until `until`, or until `responses` responses are whole.
  awaitable<Wait> read_until(Clock::time_point until, std::size_t responses = kAnyResponses);

  // A behaviour's last step: reads until the server ends the connection or `until` passes;
  // then the ending is `open` and the client closes its end. Not a coroutine: the
  // connection moves into a small object parked until its socket is readable or its time
  // comes, and the caller's coroutine frames can end at once. A held connection then costs its
  // socket, its parser state and a slot in the io_context's set of held connections (a private
  // epoll set; its socket leaves Asio's reactor meanwhile), besides its record (see
  // held.cpp, held_set.hpp).
  static void hold_until_closed(Connection connection, Clock::time_point until);

  // Holds it the same way until `at`, then hands it to `then` (called from the io_context,
  // with the connection still open), unless the server ended it first, which is recorded.
  // For a long wait in the middle of a behaviour: `then` may spawn the next steps.
  using Continuation = std::function<void(Connection)>;
  static void hold_until(Connection connection, Clock::time_point at, Continuation then);

  // Waits until something is readable (or `until`), then reads at most `max_bytes` of it
  // and notes the progress: for clients that read slowly on purpose. False once ended.
  awaitable<bool> read_at_most(std::size_t max_bytes, Clock::time_point until);

  // Waits without reading (a slow reader between its reads).
  awaitable<void> pause_until(Clock::time_point until);

  // Waits without reading until `until`, looking at the socket every `every`: its TCP state
  // (TCP_INFO), and the bytes waiting unread (FIONREAD). Nothing is read, so the receive
  // window shuts; the ending is recorded by the next read.
  // Over TLS the bytes waiting are TLS records, not yet decrypted.
  struct Watched {
    bool ended = false;  // the server ended its side (a reset: CLOSED; a FIN: CLOSE_WAIT)
    Duration filled{};   // since connect: the last look that found more bytes waiting
  };
  awaitable<Watched> pause_watching(Clock::time_point until, Duration every);

  // From now on received bytes are HTTP/2 frames (h2/session_reader.hpp): record.h2 is set,
  // responses are one a stream, read_until(until, n) waits for n whole ones as over
  // HTTP/1.1. With answer_control the replies a client owes (SETTINGS ACK, PING ACK) are
  // collected; read_until() and holding send them after each read, or a behaviour takes
  // them between its reads. A held connection that never calls this pays one null pointer.
  // Called again, it only changes answer_control (a header block left open must not be
  // interrupted by any other frame, RFC 9113 6.10).
  void speak_h2(bool answer_control = true);
  // The owed replies not yet sent (counted as sent in record.h2->frames_sent): the caller
  // sends them, co_await connection.send(owed, until). Empty when none are owed.
  std::string take_h2_owed();

  // The client ends it: an RST (SO_LINGER 0) or a FIN (shutdown, then close; over TLS a
  // close_notify first).
  void abort();
  void close_first();

  bool is_open() const { return socket_.is_open(); }
  Clock::time_point connected() const { return record_->connected(); }
  Duration since_connect() const;
  const ConnectionRecord& record() const { return *record_; }

 private:
  friend class HeldConnection;  // hold_until_closed()'s and hold_until()'s state, in held.cpp
  friend class HeldSet;         // parks it: its socket leaves Asio's reactor meanwhile

  // Bytes read in one turn before the client waits again, so a flood cannot starve others.
  static constexpr std::size_t kReadBurst = 1024 * 1024;

  awaitable<bool> wait_readable(Clock::time_point until);
  boost::system::error_code read_available(std::size_t max_bytes);
  // One non-blocking read: through the TLS session once its handshake is done, else raw
  // (and, on a TLS connection, counted as handshake bytes). Fills `application` with
  // whether the bytes are the server's application data.
  std::size_t read_some(std::span<char> buffer, boost::system::error_code& ec, bool& application);
  // Writes all of `bytes`, giving up at `until`: one SSL_write over TLS.
  awaitable<std::pair<boost::system::error_code, std::size_t>> write_all(std::string_view bytes,
                                                                         Clock::time_point until);
  // Decrypted bytes wait in the session: readable without waiting for the socket.
  bool buffered() const;
  ssl_st* established() const;  // the session once its handshake is done, else null
  awaitable<void> server_ended(const boost::system::error_code& ec);
  // Records the server's ending; true if the socket is to stay open for hold_after_close.
  bool note_server_end(const boost::system::error_code& ec);
  // Keeps the socket open for hold_after_close, then closes it (the server's FIN_WAIT2
  // stays visible meanwhile).
  static awaitable<void> linger(Connection connection);
  struct H2Hold;  // an h2 connection held in read_until(), see held.cpp
  static awaitable<void> hold_h2(std::unique_ptr<H2Hold> held);
  void end(Ending ending, const boost::system::error_code& ec);
  void close_socket();
  // Records a transport error: its message and, for an OS error, its errno.
  void note_error(const boost::system::error_code& ec);

  Socket socket_;
  TlsSession tls_;            // null: cleartext
  ConnectionRecord* record_;  // never null; a pointer so the connection can move
  ResponseReader reader_;
  std::unique_ptr<h2::SessionReader> h2_;  // null unless speak_h2()
  Duration hold_after_close_;
};

// After a request a held client made (held-recheck, h2-held-recheck): answered, the
// connection is held, reading, until `at`, then handed to `next`; not answered (or `at` past
// `until`), it is held to the end of its patience, which records the server's ending if one
// came.
inline void hold_then(bool answered, Connection connection, Clock::time_point at,
                      Clock::time_point until, Connection::Continuation next) {
  if (!answered || at > until) {
    Connection::hold_until_closed(std::move(connection), until);
    return;
  }
  Connection::hold_until(std::move(connection), at, std::move(next));
}

}  // namespace loiter::clients
