// judge() on canned soaks: least-squares slopes over the second half of the traffic against
// their bounds, the leaking descriptor type named, the last window's p99 against the
// first's, connections and threads back to baseline, and reset requests owing no answer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/judge/soak_figures.hpp"

namespace loiter::suites {
namespace {

using namespace judge_test_names;

const auto kSoakStart = Clock::time_point{} + 5000s;  // the traffic's start
constexpr int kSeconds = 20;                          // the traffic's length

// A sample at `at` seconds: `sockets` socket FDs beside 10 others, `rss_kib`, and the
// server holding `connections` established connections.
fixtures::TimedSample soak_sample(double at, std::size_t sockets, std::size_t rss_kib,
                                  std::size_t connections = 32) {
  fixtures::TimedSample s{
      .at = kSoakStart + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(at)),
      .sample = {}};
  s.sample.processes = 1;
  s.sample.threads = 4;
  s.sample.rss_kib = rss_kib;
  s.sample.fd_types.emplace();
  s.sample.fd_types->by_type[static_cast<std::size_t>(FdType::socket)] = sockets;
  s.sample.fd_types->by_type[static_cast<std::size_t>(FdType::file)] = 10;
  s.sample.fds = sockets + 10;
  s.sample.tcp.emplace();
  s.sample.tcp->server.by_state[static_cast<std::size_t>(TcpState::listen)] = 1;
  s.sample.tcp->server.by_state[static_cast<std::size_t>(TcpState::established)] = connections;
  return s;
}

// A healthy 20 s soak: 100,000 requests answered within 1 ms, p99 alike in both windows.
clients::LoadResult soak_load() {
  clients::LoadResult load;
  load.requested = load.dispatched = load.succeeded = 100'000;
  load.started = kSoakStart;
  load.ended = kSoakStart + std::chrono::seconds(kSeconds) + 5ms;
  load.seconds.resize(kSeconds);
  for (int i = 0; i < 1000; ++i) {
    load.from_intended.record(1ms);
    load.first_window.record(1ms);
    load.last_window.record(1ms);
  }
  return load;
}

// Samples every 100 ms over the traffic, and one after it (back at rest unless `after` says
// otherwise); sockets = 33 + leak_per_s × t, RSS = 50 MiB + grow_kib_per_s × t.
Observation soak_observation(double leak_per_s, double grow_kib_per_s,
                             std::size_t connections_after = 0) {
  Observation o{.scenario = "soak"};
  o.load = LoadObservation{.result = soak_load(), .pool = 32};
  o.baseline = soak_sample(-1, 1, 50 * 1024, 0).sample;
  for (int tenth = 0; tenth <= kSeconds * 10; ++tenth) {
    const double t = tenth / 10.0;
    o.timeline.push_back(soak_sample(t, 33 + static_cast<std::size_t>(leak_per_s * t),
                                     50 * 1024 + static_cast<std::size_t>(grow_kib_per_s * t)));
  }
  o.timeline.push_back(
      soak_sample(kSeconds + 1, 1 + connections_after, 50 * 1024, connections_after));
  o.fds = {.baseline = 11, .baseline_settled = true, .peak = 43, .after = 11, .recovered = true};
  return o;
}

Expectations soak_expectations() {
  return {.load = LoadExpectation{.p99 = 200ms, .pool = 32, .fds_during = false},
          .soak = SoakExpectation{.fds_per_minute = 10,
                                  .connections_per_minute = 10,
                                  .rss_kib_per_minute = 8 * 1024,
                                  .p99_growth = 2.0,
                                  .p99_floor = 20ms,
                                  .window = 5s}};
}

// The fit is exact on a straight line, over the samples in its span only.
TEST(FitSlope, IsExactOnAStraightLineAndNeedsThreeSamples) {
  std::vector<fixtures::TimedSample> timeline;
  for (int s = 0; s <= 10; ++s) timeline.push_back(soak_sample(s, 100 + 2 * s, 0));
  const auto value = [](const fixtures::ProcessSample& s) -> std::optional<double> {
    return static_cast<double>(s.fds);
  };
  const auto slope = fit_slope(timeline, kSoakStart + 5s, kSoakStart + 10s, value);
  ASSERT_TRUE(slope.has_value());
  EXPECT_NEAR(slope->per_minute(), 120.0, 1e-9);
  EXPECT_NEAR(slope->intercept, 120.0, 1e-9);  // 110 sockets + 10 files at 5 s
  EXPECT_EQ(slope->samples, 6u);
  EXPECT_FALSE(fit_slope(timeline, kSoakStart + 9s, kSoakStart + 10s, value).has_value());
}

// A wobble of one socket over a short span (2 s of traffic: a 1 s second half) fits a line
// steeper than the bound; two standard errors take it back under (38/min less 2 x 28/min).
TEST(JudgeSoak, AShortWobbleIsNotDrift) {
  auto o = soak_observation(0, 0);
  o.load->result.seconds.resize(2);
  o.load->result.scheduled = 2s;
  const int wobble[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1};  // at 1.0, 1.1, ... 2.0 s
  o.timeline.clear();
  for (int tenth = 0; tenth <= 20; ++tenth) {
    o.timeline.push_back(
        soak_sample(tenth / 10.0, 33 + (tenth >= 10 ? wobble[tenth - 10] : 0), 50 * 1024));
  }
  o.timeline.push_back(soak_sample(3, 1, 50 * 1024, 0));
  const auto e = soak_expectations();
  const auto f = soak_figures(o);
  ASSERT_TRUE(f && f->fds);
  EXPECT_GT(f->fds->per_minute(), e.soak->fds_per_minute);  // steep alone
  EXPECT_GT(f->fds->std_error, 0.0);
  EXPECT_TRUE(judge(o, e).passed) << ::testing::PrintToString(judge(o, e).findings);
}

// A soak stopped after 3 s (Ctrl-C) fits its second half, 1.5 s of connections still
// opening, to a steep line well beyond two standard errors: a figure, not drift, when the
// span is shorter than the shortest judged; the same ramp is a finding without that floor.
TEST(JudgeSoak, ASpanShorterThanTheShortestFitIsNotJudged) {
  auto o = soak_observation(0, 0);
  o.load->result.seconds.resize(3);
  o.load->result.scheduled = 3s;
  o.timeline.clear();
  for (int tenth = 0; tenth <= 30; ++tenth) {
    o.timeline.push_back(soak_sample(tenth / 10.0, 33, 50 * 1024, 20 + tenth));  // a ramp
  }
  o.timeline.push_back(soak_sample(4, 1, 50 * 1024, 0));
  auto e = soak_expectations();
  e.soak->shortest_fit = 5s;
  EXPECT_TRUE(judge(o, e).passed) << ::testing::PrintToString(judge(o, e).findings);
  e.soak->shortest_fit = {};
  EXPECT_THAT(judge(o, e).findings,
              Contains(AllOf(has_code(codes::kSlopeOverBound),
                             Field("subject", &reports::Finding::subject, "connections"))));
}

// A server at rest under churn passes: no slope, no growth, everything back.
TEST(JudgeSoak, AFlatSoakPasses) {
  const auto verdict = judge(soak_observation(0, 0), soak_expectations());
  EXPECT_TRUE(verdict.passed);
  EXPECT_THAT(verdict.findings, IsEmpty());
}

// One socket leaked per second is 60/min: over the bound of 10, and sockets are named.
TEST(JudgeSoak, LeakingSocketsFailOnTheFdSlopeNamingSockets) {
  const auto verdict = judge(soak_observation(1.0, 0), soak_expectations());
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.findings,
              Contains(AllOf(has_code(codes::kSlopeOverBound),
                             Field("subject", &reports::Finding::subject, "fds"),
                             Field("descriptor", &reports::Finding::descriptor, "socket"),
                             Field("measured", &reports::Finding::measured,
                                   ::testing::Optional(::testing::DoubleNear(60.0, 3.0))))));
}

// RSS growing 1 MiB/s is 60 MiB/min: over the 8 MiB/min bound; FDs stay within theirs.
TEST(JudgeSoak, GrowingMemoryFailsOnTheRssSlope) {
  const auto verdict = judge(soak_observation(0, 1024), soak_expectations());
  EXPECT_THAT(verdict.findings, Contains(AllOf(has_code(codes::kSlopeOverBound),
                                               Field("subject", &reports::Finding::subject, "rss"),
                                               Field("unit", &reports::Finding::unit, "MiB/min"))));
  EXPECT_THAT(verdict.findings, Not(Contains(Field("subject", &reports::Finding::subject, "fds"))));
}

// Growth in the first half only (a warm-up) is not drift.
TEST(JudgeSoak, GrowthInTheFirstHalfOnlyIsNotDrift) {
  auto o = soak_observation(0, 0);
  for (auto& s : o.timeline) {
    if (s.at < kSoakStart + 10s) s.sample.rss_kib -= 1024 * 10;  // climbing to 50 MiB at 10 s
  }
  EXPECT_TRUE(judge(o, soak_expectations()).passed);
}

// p99 five times the first window's fails; under the floor it never does.
TEST(JudgeSoak, ALastWindowP99AboveGrowthAndFloorFails) {
  auto o = soak_observation(0, 0);
  auto& load = o.load->result;
  load.last_window = {};
  for (int i = 0; i < 1000; ++i) load.last_window.record(50ms);
  EXPECT_THAT(judge(o, soak_expectations()).findings, Contains(has_code(codes::kP99Grew)));
  load.last_window = {};
  for (int i = 0; i < 1000; ++i) load.last_window.record(5ms);  // 5x, under the 20 ms floor
  EXPECT_THAT(judge(o, soak_expectations()).findings, Not(Contains(has_code(codes::kP99Grew))));
}

// A p99 that grew while loiter's load thread was short of CPU is a client limit.
TEST(JudgeSoak, AP99ThatGrewWhileTheLoadThreadWasShortOfCpuIsAClientLimit) {
  auto o = soak_observation(0, 0);
  auto& load = o.load->result;
  load.last_window = {};
  for (int i = 0; i < 1000; ++i) load.last_window.record(50ms);
  load.client = {.wall_s = 60, .busy = 0.97, .cpu_s = 58};
  EXPECT_THAT(judge(o, soak_expectations()).findings,
              Contains(with_class(FindingClass::infrastructure,
                                  AllOf(has_code(codes::kP99Grew),
                                        Field(&Finding::client_busy, Optional(0.97))))));
}

// Connections left established after the traffic: not back, with the TCP states.
TEST(JudgeSoak, ConnectionsLeftBehindAreNotBackToBaseline) {
  const auto verdict = judge(soak_observation(0, 0, 7), soak_expectations());
  EXPECT_THAT(verdict.findings,
              Contains(AllOf(has_code(codes::kNotBackToBaseline),
                             Field("subject", &reports::Finding::subject, "connections"),
                             Field("explanation", &reports::Finding::explanation,
                                   HasSubstr("ESTABLISHED 7")))));
}

// FDs not back: the finding names the type that grew from the baseline.
TEST(JudgeSoak, FdsNotRecoveredNameTheTypeLeftOver) {
  auto o = soak_observation(0, 0, 5);
  o.fds.recovered = false;
  o.fds.after = 16;
  const auto verdict = judge(o, soak_expectations());
  EXPECT_THAT(verdict.findings,
              Contains(AllOf(has_code(codes::kFdsNotRecovered),
                             Field("descriptor", &reports::Finding::descriptor, "socket"))));
}

// Requests the client reset on purpose owe no answer: not non-2xx.
TEST(JudgeSoak, AbortedRequestsOweNoAnswer) {
  auto o = soak_observation(0, 0);
  o.load->result.aborted = 500;
  o.load->result.succeeded -= 500;
  EXPECT_TRUE(judge(o, soak_expectations()).passed)
      << ::testing::PrintToString(judge(o, soak_expectations()).findings);
  o.load->result.succeeded -= 1;
  EXPECT_THAT(judge(o, soak_expectations()).findings, Contains(has_code(codes::kNon2xx)));
}

}  // namespace
}  // namespace loiter::suites
