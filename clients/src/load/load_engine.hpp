// The one load engine: every protocol's open loop (and closed loop) runs here. The engine
// owns the schedule and its tallies (load_schedule.hpp), the generator's two wakes, the
// poll of its epoll set, the pacing and the end, and the one machine that opens a pool
// connection (its socket, the non-blocking connect, the TLS handshake with the protocol's
// ALPN, all by one deadline, and a retry after a failure). What differs by protocol is the
// exchange: a protocol's run derives from Engine and gives the hooks below (HTTP/1.1:
// h1_load_run.hpp, one request at a time on each connection; HTTP/2: h2_load_run.hpp,
// streams multiplexed on each; HTTP/3: h3_load_run.hpp, a QUIC connection a link whose
// connect ends at once (UDP) and whose handshake is the exchange's own, as HTTP/2's SETTINGS
// are, so it opens its links itself).
//
// One wake (step): read what the links have for the exchange, write what that left to
// write, ask stop_early, look at the deadlines and retries when due, dispatch every request
// due by now, write again, then end or arm the next wake. The engine asks Asio to wake it for
// answers only while it must hear them at once: a due request waits for a connection or a
// slot, a connection is being opened, the answers carry no receive timestamp (TLS), or the
// next wake is far; otherwise answers wait for the next wake and are timed by the kernel's
// receive time (see clients/bench/README.md).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "load_schedule.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients::load_detail {

// After a failed opening, before the next attempt.
inline constexpr auto kConnectRetry = 10ms;

// Where a link's opening is.
enum class LinkState {
  closed,       // no socket (a failed one waits for its retry_at)
  connecting,   // a non-blocking connect under way
  handshaking,  // the TLS handshake under way (within the connect's deadline)
  open,         // connected (and through TLS): the exchange runs on it
};

// A pool connection's transport beneath its protocol: its socket, its TLS session and where
// its opening is. A protocol's connection derives from it.
struct Link {
  int fd = -1;
  TlsSession tls;
  LinkState state = LinkState::closed;
  Clock::time_point deadline = kNever;  // the opening's, then what the exchange waits for
  Clock::time_point retry_at = kNever;  // opened again then (a failed or retired link)
};

struct Engine : Schedule {
  // `alpn`: the one protocol a TLS handshake offers ("h2"), empty for the context's list.
  Engine(Executor executor, const LoadOptions& o, LoadResult& result, std::string_view alpn);
  virtual ~Engine() = default;

  // The exchange: what a protocol's run gives.
  virtual void open_pool() = 0;                      // the pool, opened ahead of the schedule
  virtual void opened(Link& link) = 0;               // through its connect (and TLS)
  virtual void ready(Link& link) = 0;                // readiness of an open link
  virtual void open_failed(Link& link) = 0;          // counted: closed, and retried or not
  virtual void expired(Link& link) = 0;              // an open link past its deadline
  virtual void watch(Clock::time_point now) = 0;     // deadlines and retries (next_retry)
  virtual void dispatch(Clock::time_point now) = 0;  // the requests due by `now`
  virtual void flush() {}                            // what the wake left to write
  virtual std::size_t in_flight() const = 0;         // requests taken and not yet over
  // A due request waits for a connection or a stream slot (`due`: one is due).
  virtual bool starved(bool due) const = 0;
  virtual bool opening() const { return false; }  // answers heard at once while one opens
  virtual void close_all() = 0;                   // the end: every connection closed

  // The links (load_engine.cpp).
  void open_link(Link& link);   // a new socket, connecting by options.request_timeout
  void link_event(Link& link);  // readiness: the opening's next step, or the exchange's
  // The opening (or the exchange's start) failed: counted as `kind`, then open_failed.
  void link_failed(Link& link, const char* kind);
  void expire(Link& link);      // past its deadline: the opening failed, or expired()
  void close_link(Link& link);  // the socket and its session gone (the client's FIN)
  void reopen_at(Link& link, Clock::time_point at);  // the link opens again at `at`
  Link*& owner_of(int fd) {
    if (static_cast<std::size_t>(fd) >= by_fd.size()) by_fd.resize(fd + 64, nullptr);
    return by_fd[static_cast<std::size_t>(fd)];
  }

  bool stamped = false;   // the links' reads carry the kernel's receive time (cleartext)
  std::string_view alpn;  // the protocol a TLS link must agree on; empty: any
  std::vector<unsigned char> alpn_wire;
  std::vector<Link*> by_fd;  // descriptor -> its link
};

// Runs `engine` on its executor: the pool opened, then its wakes until the schedule's end.
void start_engine(std::shared_ptr<Engine> engine);

// The protocols' runs (h1_load.cpp, h2_load.cpp, h3_load.cpp).
std::shared_ptr<Engine> make_h1_load(Executor executor, const LoadOptions& o, LoadResult& out);
std::shared_ptr<Engine> make_h2_load(Executor executor, const LoadOptions& o, LoadResult& out);
std::shared_ptr<Engine> make_h3_load(Executor executor, const LoadOptions& o, LoadResult& out);

}  // namespace loiter::clients::load_detail
