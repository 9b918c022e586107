// The open-loop generator's state (load.cpp paces it, load_conn.cpp connects, load_exchange.cpp
// sends and reads, load_tally.cpp counts): its connections, the requests taken from the
// timeline and the tallies kept while it runs. Nothing here grows with the number of
// requests, only with the pool and the schedule's length (one tally per second, one counter
// per millisecond).
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
#include <boost/asio/posix/basic_stream_descriptor.hpp>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "http1/response_end.hpp"
#include "loiter/clients/load/load.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients::load_detail {

using namespace std::chrono_literals;

inline constexpr auto kNever = Clock::time_point::max();

// A request taken from the timeline: its index and when it is due.
struct Ticket {
  std::uint64_t index = 0;
  Clock::time_point due;
};

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

struct SecondTally {
  std::uint64_t dispatched = 0, succeeded = 0, failed = 0;
  LatencyHistogram from_intended;
};

using Descriptor = asio::posix::basic_stream_descriptor<Executor>;

// State shared by the generator's handlers (one io_context thread: no locks).
struct Run {
  Run(Executor executor, const LoadOptions& o, LoadResult& result)
      : options(o), out(result), pacer(executor), waker(executor) {}
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  LoadOptions options;
  LoadResult& out;
  std::string request;        // pooled and fresh requests
  std::string close_request;  // server_close: with "Connection: close"
  std::string abort_request;  // abort: churn.abort_path (or path)
  bool churn = false;         // options.churn.any()
  bool head = false;          // HEAD: responses carry no body
  bool closed_loop = false;
  bool stamped = false;  // answers carry the kernel's receive time (cleartext)
  double ns_per_request = 0.0;
  std::uint64_t next = 0;  // the next index to take (of the share's: next % parts == part)
  std::uint64_t end = 0;   // the schedule's end: requests [0, end) of the whole schedule
  Clock::time_point schedule_end, send_until, give_up;
  Clock::time_point first_window_end, last_window_start;  // edge windows (by due time)
  std::vector<std::uint32_t> sends_per_ms;                // by actual send time since start
  std::vector<SecondTally> seconds;                       // by intended send time since start

  std::vector<std::unique_ptr<Conn>> conns;
  std::deque<Conn*> free;    // connections without a ticket, least recently used first
  std::vector<Conn*> by_fd;  // descriptor -> its connection (active or parked)
  std::size_t busy = 0;      // connections carrying a ticket
  int epoll_fd = -1;

  // The wakes: the pacer timer, and the readiness wait on epoll_fd (waker) while answers
  // must be heard at once. A handler of a superseded wait sees another generation and does
  // nothing.
  Timer pacer;
  Clock::time_point pacer_at = kNever;
  std::uint64_t pacer_generation = 0;
  Descriptor waker;
  bool waker_waiting = false;
  std::uint64_t waker_generation = 0;
  Clock::time_point next_watch = kNever, next_retry = kNever;
  Duration watch_every{};
  // No millisecond dispatches more than twice the rate's mean: a wake that came late spreads
  // its catch-up over the next milliseconds instead of bursting.
  std::uint32_t burst_cap = 0;     // 0: no cap (closed loop)
  Clock::time_point burst_wait{};  // the cap held dispatch back until then
  bool stopped = false;            // options.stop_early said so: nothing more is taken
  bool ended = false;

  // The next request if it is due by `now`; nothing once the schedule has run out (or
  // stopped, or its send window passed).
  std::optional<Ticket> take_due(Clock::time_point now);
  // When the next request is due; nullopt when none is left to take.
  std::optional<Clock::time_point> next_due(Clock::time_point now) const;
  // Asks options.stop_early (once a wake): once it says so, the schedule ends at `next`.
  void ask_stop_early();
  // How many of the requests [0, index) of the whole schedule are this share's.
  std::uint64_t share_below(std::uint64_t index) const {
    const auto part = options.share.part, parts = options.share.parts;
    return index > part ? (index - part + parts - 1) / parts : 0;
  }
  Clock::time_point due(std::uint64_t index) const {
    return options.start +
           Duration(static_cast<Duration::rep>(static_cast<double>(index) * ns_per_request));
  }
  SecondTally& second_of(Clock::time_point t) {
    const auto k = std::max<Duration::rep>(0, (t - options.start) / 1s);
    return seconds[std::min(static_cast<std::size_t>(k), seconds.size() - 1)];
  }
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

// The tallies (load_tally.cpp).
void note_sent(Run& run, const Ticket& ticket, Clock::time_point sent);
void note_response(Run& run, const Ticket& ticket, Clock::time_point sent,
                   Clock::time_point answered, unsigned status);
void finish(Run& run);

}  // namespace loiter::clients::load_detail
