// The open-loop generator's state (load.cpp drives it, load_tally.cpp counts into it): the
// pool's slots, the requests taken from the timeline, and the tallies kept while it runs.
// Nothing here grows with the number of requests or connections, only with the schedule's
// length (one tally per second, one counter per millisecond).
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/load/load.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients::load_detail {

using namespace std::chrono_literals;

inline constexpr auto kNever = Clock::time_point::max();

// One pool connection: its socket, its receive buffer (reused for every response) and the
// deadline of what it is doing, which the watchdog enforces. A churn request (fresh,
// server_close, abort) goes on a connection of its own: the kept-alive one waits in
// `parked_*` meanwhile and comes back after it.
struct Slot {
  explicit Slot(Executor executor) : socket(executor), parked_socket(executor), timer(executor) {}
  Socket socket;
  TlsSession tls;          // over TLS: the session on `socket`
  std::size_t served = 0;  // requests answered on `socket` (replace_every)
  Socket parked_socket;
  TlsSession parked_tls;
  std::size_t parked_served = 0;
  bool parked = false;
  Timer timer;
  Clock::time_point deadline = kNever;
  bool timed_out = false;
  std::size_t filled = 0;
  std::array<char, 16 * 1024> buffer;
};

// A request taken from the timeline: its index and when it is due.
struct Ticket {
  std::uint64_t index = 0;
  Clock::time_point due;
};

struct SecondTally {
  std::uint64_t dispatched = 0, succeeded = 0, failed = 0;
  LatencyHistogram from_intended;
};

// State shared by the pool's coroutines (one io_context thread: no locks).
struct Run {
  Run(Executor executor, const LoadOptions& o, LoadResult& result)
      : options(o), out(result), watchdog(executor) {}

  LoadOptions options;
  LoadResult& out;
  std::string request;        // pooled and fresh requests
  std::string close_request;  // server_close: with "Connection: close"
  std::string abort_request;  // abort: churn.abort_path (or path)
  bool churn = false;         // options.churn.any()
  bool head = false;          // HEAD: responses carry no body
  bool closed_loop = false;
  double ns_per_request = 0.0;
  std::uint64_t next = 0;  // the next index to take
  Clock::time_point schedule_end, send_until;
  Clock::time_point first_window_end, last_window_start;  // edge windows (by due time)
  std::vector<std::uint32_t> sends_per_ms;                // by actual send time since start
  std::vector<SecondTally> seconds;                       // by intended send time since start
  std::vector<std::unique_ptr<Slot>> slots;
  std::size_t live = 0;  // pool coroutines still running
  Timer watchdog;

  bool stopped = false;  // options.stop_early said so: nothing more is taken

  std::optional<Ticket> take() {
    if (!stopped && options.stop_early && options.stop_early()) {
      stopped = true;
      if (!closed_loop) out.requested = next;  // the schedule ends here
    }
    if (stopped) return std::nullopt;
    if (closed_loop) {
      const auto now = Clock::now();
      if (now >= schedule_end) return std::nullopt;
      return Ticket{next++, now};
    }
    if (next >= out.requested) return std::nullopt;
    const auto index = next++;
    return Ticket{index, due(index)};
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
};

// The connections (load_connect.cpp).
void close_slot(Slot& slot);  // the client's close: FIN
void reset_slot(Slot& slot);  // the client's reset: RST
void park(Slot& slot);        // a churn request: the kept-alive connection set aside
void unpark(Slot& slot);      // after it: its own connection closed, the kept-alive one back
awaitable<bool> connect(Run& run, Slot& slot);  // false: counted, the slot is closed

// The tallies (load_tally.cpp).
void note_sent(Run& run, const Ticket& ticket, Clock::time_point sent);
void note_response(Run& run, const Ticket& ticket, Clock::time_point sent, unsigned status);
void finish(Run& run);

}  // namespace loiter::clients::load_detail
