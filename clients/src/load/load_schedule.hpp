// The load engine's schedule (load_engine.hpp), the same whatever the protocol: the timeline
// (which request is due when, this shard's share of it, stop_early), the burst cap, the
// tick's grid, the tallies kept while it runs (load_tally.cpp) and the state of its two wakes
// (the pacer timer, and a readiness wait on the engine's own epoll set while answers must be
// heard at once).
#pragma once

#include <algorithm>
#include <boost/asio/posix/basic_stream_descriptor.hpp>
#include <memory>
#include <optional>
#include <vector>

#include "client_cost.hpp"
#include "loiter/clients/load/load.hpp"

namespace loiter::clients::load_detail {

using namespace std::chrono_literals;

inline constexpr auto kNever = Clock::time_point::max();

// A request taken from the timeline: its index and when it is due.
struct Ticket {
  std::uint64_t index = 0;
  Clock::time_point due;
};

struct SecondTally {
  std::uint64_t dispatched = 0, succeeded = 0, failed = 0;
  LatencyHistogram from_intended;
};

using Descriptor = asio::posix::basic_stream_descriptor<Executor>;

// Throws std::invalid_argument as spawn_load documents.
void check_options(const LoadOptions& options);

struct Schedule {
  // Sets the timeline from `o` (and resets `result`); opens the epoll set.
  Schedule(Executor executor, const LoadOptions& o, LoadResult& result);
  ~Schedule();
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  LoadOptions options;
  LoadResult& out;
  bool closed_loop = false;
  double ns_per_request = 0.0;
  std::uint64_t next = 0;  // the next index to take (of the share's: next % parts == part)
  std::uint64_t end = 0;   // the schedule's end: requests [0, end) of the whole schedule
  Clock::time_point schedule_end, send_until, give_up;
  Clock::time_point first_window_end, last_window_start;  // edge windows (by due time)
  // Sends by actual send time, a millisecond at a time (they come in time order: a send
  // stamped in an earlier millisecond counts in the current one): the current millisecond
  // since start, its sends so far, and the most any millisecond had. Nothing grows with the
  // run's length.
  Duration::rep send_ms = -1;
  std::uint32_t sends_this_ms = 0, most_sends_in_one_ms = 0;
  std::vector<SecondTally> seconds;                       // by intended send time since start
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
  CostMeter cost;                  // the client's own CPU, on the load's thread
  bool ended = false;

  // The next request if it is due by `now`; nothing once the schedule has run out (or
  // stopped, or its send window passed).
  std::optional<Ticket> take_due(Clock::time_point now);
  // When the next request is due; nullopt when none is left to take.
  std::optional<Clock::time_point> next_due(Clock::time_point now) const;
  // Asks options.stop_early (once a wake): once it says so, the schedule ends at `next`.
  void ask_stop_early();
  // True when this millisecond has had its share of sends (twice the mean), counted as the
  // tallies count them (by the time each request was written): the rest wait for the next.
  bool over_burst_cap();
  // When the generator should wake for a request due at `at`: on the tick's grid, and after
  // a millisecond the burst cap closed.
  Clock::time_point paced(Clock::time_point at) const;
  // `at` rounded up onto the tick's grid (as it is; kNever as it is): a protocol's own timer
  // (QUIC's) then wakes the generator with its requests, not between them.
  Clock::time_point on_tick(Clock::time_point at) const;
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
};

// The tallies (load_tally.cpp).
void note_sent(Schedule& run, const Ticket& ticket, Clock::time_point sent);
void note_response(Schedule& run, const Ticket& ticket, Clock::time_point sent,
                   Clock::time_point answered, unsigned status);
void finish(Schedule& run);

}  // namespace loiter::clients::load_detail
