// What the load generator's tests share, HTTP/1.1's and HTTP/2's: a run to its end, what they
// assert at any machine speed (the latency identity), and a stop asked at a time but seen at
// a wake.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "drive.hpp"
#include "loiter/clients/load/load.hpp"

namespace loiter::clients::testing {

// From spawning a generator to its timeline's start (widened by LOITER_TIME_SCALE).
inline const Duration kLoadLead = scaled(std::chrono::milliseconds(50));

// The generator on an io_context of its own, until it stops by itself (its schedule and its
// send grace bound it): its result.
inline LoadResult run_until_stopped(const LoadOptions& options) {
  asio::io_context io(1);
  LoadResult result;
  spawn_load(io, options, result);
  io.run();
  return result;
}

// Each request's latency from intended is its send's lag plus its latency from the send
// (load_tally.cpp), so the histograms and the lag agree whatever the machine's speed:
// the mean lateness lies between 0 and the largest lag (1 us for the means' rounding), and
// the largest latency from intended within the largest lag plus the largest from the send.
inline ::testing::AssertionResult latency_adds_up(const LoadResult& r) {
  const auto lateness = r.from_intended.mean() - r.from_sent.mean();
  if (lateness < Duration::zero() || lateness > r.max_send_lag + std::chrono::microseconds(1) ||
      r.from_intended.max() > r.max_send_lag + r.from_sent.max()) {
    return ::testing::AssertionFailure()
           << "from intended (mean " << r.from_intended.mean().count() << " ns, max "
           << r.from_intended.max().count() << ") is not the send lag (max "
           << r.max_send_lag.count() << ") plus from sent (mean " << r.from_sent.mean().count()
           << ", max " << r.from_sent.max().count() << ")";
  }
  return ::testing::AssertionSuccess();
}

// A stop_early that asks to stop from `at` on and keeps when the generator first saw it:
// a wake that comes late sees the stop before it takes the requests due meanwhile, so a
// schedule stopped early is held to that moment, not to `at`.
class StopSeen {
 public:
  explicit StopSeen(Clock::time_point at) : seen_(std::make_shared<Seen>(Seen{at, {}})) {}

  std::function<bool()> predicate() const {
    return [seen = seen_] {
      if (Clock::now() < seen->at) return false;
      if (!seen->when) seen->when = Clock::now();
      return true;
    };
  }
  bool seen() const { return seen_->when.has_value(); }
  // How many requests, one due each `every` from `start`, were due when it was seen.
  std::uint64_t due_when_seen(Clock::time_point start, Duration every) const {
    return static_cast<std::uint64_t>((*seen_->when - start) / every) + 1;
  }

 private:
  struct Seen {
    Clock::time_point at;
    std::optional<Clock::time_point> when;
  };
  std::shared_ptr<Seen> seen_;
};

// Runs a schedule of one request each millisecond, `scheduled` of them in all, with a stop
// asked `after` into it, and checks that it ended where the generator saw the stop: it says
// it stopped early, requested something but none due after the stop was seen, fewer than the
// whole schedule, and sent and had answered each request it took. Returns the result for what
// a test checks besides.
inline LoadResult stopped_early_where_seen(LoadOptions options, Duration after,
                                           std::uint64_t scheduled) {
  const StopSeen stop(options.start + after);
  options.stop_early = stop.predicate();
  const auto r = run_until_stopped(options);
  EXPECT_TRUE(r.stopped_early);
  if (!stop.seen()) {
    ADD_FAILURE() << "the generator never saw the stop";
    return r;
  }
  EXPECT_GT(r.requested, 0u);
  EXPECT_LE(r.requested, stop.due_when_seen(options.start, std::chrono::milliseconds(1)));
  EXPECT_LT(r.requested, scheduled);
  EXPECT_EQ(r.dispatched, r.requested);
  EXPECT_EQ(r.succeeded, r.requested);
  return r;
}

}  // namespace loiter::clients::testing
