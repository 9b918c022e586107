// The HTTP/1.1 exchange of the load engine (load_engine.hpp): its connections, each carrying
// one request at a time, the requests taken from the timeline and the pool's free list
// (h1_load.cpp takes and watches them, h1_load_conn.cpp keeps the connections,
// h1_load_exchange.cpp sends and reads). Nothing here grows with the number of requests,
// only with the pool.
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "http1/response_end.hpp"
#include "load_engine.hpp"
#include "loiter/clients/load/load.hpp"

namespace loiter::clients::load_detail {

// What a connection is doing.
enum class H1Phase {
  closed,    // no open link (none, or one being opened; its ticket waits for it)
  idle,      // kept alive, free for the next request
  writing,   // the request not all written yet
  reading,   // awaiting the whole answer
  aborting,  // abort: awaiting the answer's first bytes, then RST
  closing,   // server_close: answered, awaiting the server's FIN
};

// One pool connection: its descriptor, what it is doing, the request it carries and its
// receive buffer (kept between reads only for a head that came in pieces). A churn request
// (fresh, server_close, abort) goes on a connection of its own: the kept-alive one waits in
// `parked_*` meanwhile and comes back after it.
struct H1Conn : Link {
  std::size_t served = 0;  // requests answered on `fd` (replace_every)
  int parked_fd = -1;
  TlsSession parked_tls;
  std::size_t parked_served = 0;
  bool parked = false;
  bool stirred = false;  // an event came while idle (the server's FIN, as a rule)
  H1Phase phase = H1Phase::closed;
  std::optional<Ticket> ticket;  // the request this connection carries
  RequestKind kind = RequestKind::pooled;
  Clock::time_point sent{};
  std::size_t written = 0;
  std::optional<ResponseEnd> parser;
  std::size_t filled = 0;
  std::array<char, 16 * 1024> buffer;
};

// The engine with the HTTP/1.1 pool (one io_context thread: no locks).
struct H1Run : Engine {
  H1Run(Executor executor, const LoadOptions& o, LoadResult& result)
      : Engine(executor, o, result, {}) {}
  ~H1Run() override;
  H1Run(const H1Run&) = delete;
  H1Run& operator=(const H1Run&) = delete;

  // The exchange (h1_load.cpp, h1_load_conn.cpp, h1_load_exchange.cpp).
  void open_pool() override;                   // every connection, each free for a request
  void opened(Link& link) override;            // its request goes, or it waits idle for one
  void ready(Link& link) override;             // the write, the answer, the FIN its phase waits for
  void open_failed(Link& link) override;       // its request, if any, waits for a retry
  void expired(Link& link) override;           // the request failed: "timeout"
  void watch(Clock::time_point now) override;  // requests' deadlines, connect retries
  void dispatch(Clock::time_point now) override;  // a due request to each free connection
  std::size_t in_flight() const override { return busy; }
  // Every connection carries a request: the next due one waits for the first free.
  bool starved(bool due) const override { return due && free.empty(); }
  void close_all() override;

  std::string request;        // pooled and fresh requests
  std::string close_request;  // server_close: with "Connection: close"
  std::string abort_request;  // abort: churn.abort_path (or path)
  bool churn = false;         // options.churn.any()
  bool head = false;          // HEAD: responses carry no body

  std::vector<std::unique_ptr<H1Conn>> conns;
  std::deque<H1Conn*> free;  // connections without a ticket, least recently used first
  std::size_t busy = 0;      // connections carrying a ticket

  const std::string& request_for(RequestKind kind) const {
    if (kind == RequestKind::server_close) return close_request;
    if (kind == RequestKind::abort) return abort_request;
    return request;
  }
};

// The connections (h1_load_conn.cpp).
void close_conn(H1Run& run, H1Conn& conn);  // the client's close: FIN
void reset_conn(H1Run& run, H1Conn& conn);  // the client's reset: RST
void park(H1Run& run, H1Conn& conn);        // a churn request: the kept-alive connection set aside
void unpark(H1Run& run, H1Conn& conn);  // after it: its own connection closed, the kept one back

// The exchanges (h1_load_exchange.cpp).
void start_exchange(H1Run& run, H1Conn& conn);  // a connected connection sends its ticket
void on_ready(H1Run& run, H1Conn& conn);        // readiness of its open link
void expire(H1Run& run, H1Conn& conn);          // its exchange's deadline passed
// The ticket is done with (answered, failed or dropped): the connection is free again.
void release(H1Run& run, H1Conn& conn);

}  // namespace loiter::clients::load_detail
