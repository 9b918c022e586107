// The server's side of a sharded run from the observer's samples: the baseline is the server
// at rest before the first shard's clients began, the recovery is timed from the last shard's
// end, and what the observer did not watch (before the start, to the recovery's end) keeps the
// run from being judged rather than passing it.
#include "loiter/suites/document/server_side.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const WallClock::time_point kStart = parse_utc("2026-12-02T10:00:00Z");

// Samples every 100 ms from `from` to `to` (s after kStart), FDs as `fds` says at each time.
ServerWatch watch(double from, double to, const std::function<std::size_t(double)>& fds) {
  ServerWatch w{.pid = 42, .ended_by = WatchEnding::interrupt};
  for (double t = from; t <= to + 1e-9; t += 0.1) {
    fixtures::ProcessSample s{.processes = 2, .fds = fds(t), .rss_kib = 1000, .threads = 2};
    w.samples.push_back(
        {.at = kStart + std::chrono::duration_cast<WallClock::duration>(std::chrono::duration<double>(t)),
         .sample = s});
  }
  return w;
}

Expectations expected() { return {.fds_after = 0, .recovery = 3s}; }

// 20 FDs at rest, 1,020 while the clients (from -0.3 s, a load's pool opening before the
// start, to 5 s) hold connections, back to 20 at 5.5 s.
std::size_t a_run(double t) { return t < -0.3 ? 20 : t < 5.5 ? 1020 : 20; }

const ShardMoments kMoments{.start_at = kStart, .clients_from = kStart - 300ms,
                            .clients_ended = kStart + 5s};

// The baseline is taken before the clients began (not at the start, when a pool is already
// open), the peak over the run, the recovery from the last shard's end.
TEST(ServerSide, BaselineBeforeTheClientsAndRecoveryFromTheirEnd) {
  const auto side = server_side(watch(-3, 12, a_run), kMoments, {}, expected(), timing());
  EXPECT_THAT(side.problems, IsEmpty());
  EXPECT_EQ(side.fds.baseline, 20u);
  EXPECT_TRUE(side.fds.baseline_settled);
  EXPECT_EQ(side.fds.peak, 1020u);
  ASSERT_TRUE(side.fds.recovered);
  EXPECT_NEAR(std::chrono::duration<double>(*side.fds.recovered_after).count(), 0.5, 0.11);
  EXPECT_FALSE(side.server_exit);
  ASSERT_FALSE(side.timeline.empty());
}

// FDs that never come back within the recovery window: not recovered, the last value kept.
TEST(ServerSide, FdsThatStayAreNotRecovered) {
  const auto side = server_side(watch(-3, 12, [](double t) -> std::size_t { return t < -0.3 ? 20 : 1020; }),
                                kMoments, {}, expected(), timing());
  EXPECT_THAT(side.problems, IsEmpty());
  EXPECT_FALSE(side.fds.recovered);
  EXPECT_EQ(side.fds.after, 1020u);
}

// An observer that began after the clients, or stopped before the recovery window closed,
// did not see the whole run: a problem (the merge calls the run incomplete), never a pass.
TEST(ServerSide, AnObserverThatMissedPartOfTheRunIsAProblem) {
  auto late = server_side(watch(0, 12, a_run), kMoments, {}, expected(), timing());
  ASSERT_EQ(late.problems.size(), 1u);
  EXPECT_THAT(late.problems[0], HasSubstr("no baseline"));
  auto early = server_side(watch(-3, 5.2, a_run), kMoments, {}, expected(), timing());
  ASSERT_EQ(early.problems.size(), 1u);
  EXPECT_THAT(early.problems[0], HasSubstr("before the recovery window closed"));
}

// A server gone during the run (its processes 0) is the run's server exit.
TEST(ServerSide, AServerGoneDuringTheRunIsNamed) {
  auto w = watch(-3, 12, a_run);
  for (auto& s : w.samples) {
    if (s.at > kStart + 2s) s.sample.processes = 0;
  }
  const auto side = server_side(w, kMoments, {}, expected(), timing());
  ASSERT_TRUE(side.server_exit);
  EXPECT_THAT(*side.server_exit, HasSubstr("pid 42"));
}

}  // namespace
}  // namespace loiter::suites
