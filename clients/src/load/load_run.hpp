// The open-loop HTTP/1.1 generator's state (load.cpp paces it, load_conn.cpp connects,
// load_exchange.cpp sends and reads; the timeline and the tallies are load_schedule.hpp's,
// the sockets' opening, reads and writes load_socket.hpp's, both shared with the HTTP/2
// generator): its connections, the requests taken from the timeline and the tallies kept
// while it runs. Nothing here grows with the number of requests, only
// with the pool and the schedule's length (one tally per second, one counter per millisecond).
//
// The connections are plain non-blocking descriptors in an epoll set of the generator's own
// (edge-triggered), not Asio sockets: the generator alone decides when it wakes. Asio gives
// it a timer (its next due request) and, only while it must hear answers at once, a
// readiness wait on that epoll set. Between two sends due close together it does not wake
// for answers: it reads them at its next wake and times each one by the kernel's receive
// timestamp (SO_TIMESTAMPNS), so latency stays exact while wakes, the dearest thing a
// generator does, are fewer (see clients/bench/README.md).
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "http1/response_end.hpp"
#include "load_schedule.hpp"
#include "loiter/clients/load/load.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients::load_detail {

// What a connection is doing.
enum class Phase {
  closed,       // no socket (its ticket, if any, waits for a connect retry)
  connecting,   // a non-blocking connect under way
  handshaking,  // the TLS handshake under way
  idle,         // kept alive, free for the next request
  writing,      // the request not all written yet
  reading,      // awaiting the whole answer
  aborting,     // abort: awaiting the answer's first bytes, then RST
  closing,      // server_close: answered, awaiting the server's FIN
};

// One pool connection: its descriptor, what it is doing, the request it carries and its
// receive buffer (kept between reads only for a head that came in pieces). A churn request
// (fresh, server_close, abort) goes on a connection of its own: the kept-alive one waits in
// `parked_*` meanwhile and comes back after it.
struct Conn {
  int fd = -1;
  TlsSession tls;
  std::size_t served = 0;  // requests answered on `fd` (replace_every)
  int parked_fd = -1;
  TlsSession parked_tls;
  std::size_t parked_served = 0;
  bool parked = false;
  bool stirred = false;  // an event came while idle (the server's FIN, as a rule)
  Phase phase = Phase::closed;
  std::optional<Ticket> ticket;  // the request this connection carries
  RequestKind kind = RequestKind::pooled;
  Clock::time_point sent{}, deadline = kNever, retry_at = kNever;
  std::size_t written = 0;
  std::optional<ResponseEnd> parser;
  std::size_t filled = 0;
  std::array<char, 16 * 1024> buffer;
};

// State shared by the generator's handlers (one io_context thread: no locks): the schedule
// and its tallies (load_schedule.hpp), and the HTTP/1.1 pool.
struct Run : Schedule {
  Run(Executor executor, const LoadOptions& o, LoadResult& result)
      : Schedule(executor, o, result) {}
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  std::string request;        // pooled and fresh requests
  std::string close_request;  // server_close: with "Connection: close"
  std::string abort_request;  // abort: churn.abort_path (or path)
  bool churn = false;         // options.churn.any()
  bool head = false;          // HEAD: responses carry no body
  bool stamped = false;       // answers carry the kernel's receive time (cleartext)

  std::vector<std::unique_ptr<Conn>> conns;
  std::deque<Conn*> free;    // connections without a ticket, least recently used first
  std::vector<Conn*> by_fd;  // descriptor -> its connection (active or parked)
  std::size_t busy = 0;      // connections carrying a ticket

  const std::string& request_for(RequestKind kind) const {
    if (kind == RequestKind::server_close) return close_request;
    if (kind == RequestKind::abort) return abort_request;
    return request;
  }
  Conn*& owner_of(int fd) {
    if (static_cast<std::size_t>(fd) >= by_fd.size()) by_fd.resize(fd + 64, nullptr);
    return by_fd[static_cast<std::size_t>(fd)];
  }
};

// The connections (load_conn.cpp).
void close_conn(Run& run, Conn& conn);  // the client's close: FIN
void reset_conn(Run& run, Conn& conn);  // the client's reset: RST
void park(Run& run, Conn& conn);        // a churn request: the kept-alive connection set aside
void unpark(Run& run, Conn& conn);      // after it: its own connection closed, the kept one back
// Opens and starts connecting; a failure is counted and the ticket waits for a retry.
void begin_connect(Run& run, Conn& conn);
void on_connect_ready(Run& run, Conn& conn);  // connecting or handshaking: one step on
void connect_failed(Run& run, Conn& conn, const char* kind);

// The exchanges (load_exchange.cpp).
void start_exchange(Run& run, Conn& conn);  // a connected connection sends its ticket
void on_ready(Run& run, Conn& conn);        // readiness: the step its phase waits for
void expire(Run& run, Conn& conn);          // its deadline passed
// The ticket is done with (answered, failed or dropped): the connection is free again.
void release(Run& run, Conn& conn);

}  // namespace loiter::clients::load_detail
