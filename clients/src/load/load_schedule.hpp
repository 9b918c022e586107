// What both open-loop generators (HTTP/1.1 in load.cpp, HTTP/2 in h2_load.cpp) share: the
// timeline (which request is due when, this shard's share of it, stop_early), the burst cap,
// the tick's grid, the tallies kept while they run (load_tally.cpp) and their two wakes (the
// pacer timer, and a readiness wait on the generator's own epoll set while answers must be
// heard at once). A generator's state derives from Schedule and adds its connections.
#pragma once

#include <algorithm>
#include <boost/asio/posix/basic_stream_descriptor.hpp>
#include <memory>
#include <optional>
#include <vector>

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
  std::vector<std::uint32_t> sends_per_ms;                // by actual send time since start
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

// The pacer's wait, armed for `at` (kNever: none); `wake` runs when it fires.
template <typename Self, typename Wake>
void arm_pacer(const std::shared_ptr<Self>& self, Clock::time_point at, Wake wake) {
  Schedule& run = *self;
  if (at == run.pacer_at) return;  // the pending wait stands
  run.pacer_at = at;
  const auto generation = ++run.pacer_generation;
  if (at == kNever) {
    run.pacer.cancel();
    return;
  }
  run.pacer.expires_at(at);
  run.pacer.async_wait([self, generation, wake](const boost::system::error_code&) {
    if (generation != self->pacer_generation) return;
    self->pacer_at = kNever;
    wake(self);
  });
}

// Asio watches the epoll set (one registration) only while answers must be heard at once.
template <typename Self, typename Wake>
void hear_answers(const std::shared_ptr<Self>& self, bool hear, Wake wake) {
  Schedule& run = *self;
  if (!hear) {
    if (!run.waker.is_open()) return;
    ++run.waker_generation;
    run.waker_waiting = false;
    run.waker.release();
    return;
  }
  if (!run.waker.is_open()) {
    boost::system::error_code ignored;
    run.waker.assign(run.epoll_fd, ignored);
  }
  if (run.waker_waiting) return;
  run.waker_waiting = true;
  const auto generation = ++run.waker_generation;
  run.waker.async_wait(Descriptor::wait_read,
                       [self, generation, wake](const boost::system::error_code& ec) {
                         if (generation != self->waker_generation) return;
                         self->waker_waiting = false;
                         if (!ec) wake(self);
                       });
}

// The tallies (load_tally.cpp).
void note_sent(Schedule& run, const Ticket& ticket, Clock::time_point sent);
void note_response(Schedule& run, const Ticket& ticket, Clock::time_point sent,
                   Clock::time_point answered, unsigned status);
void finish(Schedule& run);

// The HTTP/2 generator (h2_load.cpp), spawn_load's when LoadOptions::h2.
void spawn_h2_load(asio::io_context& io, const LoadOptions& options, LoadResult& out);

}  // namespace loiter::clients::load_detail
