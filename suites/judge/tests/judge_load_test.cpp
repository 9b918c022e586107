// judge() on canned load observations: waiting connections judged per kind, regular traffic
// judged on what was dispatched, and FDs judged while the load still ran.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/judge/load_figures.hpp"

namespace loiter::suites {
namespace {

using namespace judge_test_names;

const auto kT0 = Clock::time_point{} + 1000s;  // the load's start

ConnectionRecord waiting(std::string_view kind, Ending ending, Duration at) {
  ConnectionRecord record;
  record.kind = kind;
  record.connect_start = kT0 + 1s;
  record.ending = ending;
  record.ended_at = at;
  return record;
}

fixtures::TimedSample sample(Duration at, std::size_t fds) {
  fixtures::TimedSample s{.at = kT0 + at, .sample = {}};
  s.sample.processes = 1;
  s.sample.fds = fds;
  return s;
}

// 5,000 dispatched, all 2xx, p99 ≈ 1 ms; the load ran 10 s.
clients::LoadResult healthy_load() {
  clients::LoadResult load;
  load.requested = load.dispatched = load.succeeded = 5000;
  for (int i = 0; i < 5000; ++i) load.from_intended.record(1ms);
  load.started = kT0;
  load.ended = kT0 + 10s;
  return load;
}

Observation observe(std::vector<ConnectionRecord> records, clients::LoadResult load,
                    std::size_t fds_during) {
  return {.scenario = "idle-under-load",
          .connections = std::move(records),
          .load = LoadObservation{.result = std::move(load), .pool = 32},
          .fds = {.baseline = 10,
                  .baseline_settled = true,
                  .peak = 50,
                  .after = 10,
                  .recovered = true,
                  .recovered_after = 10ms},
          .timeline = {sample(0s, 42), sample(2s, 45), sample(9s, fds_during), sample(11s, 10)},
          .server_exit = std::nullopt};
}

// The waiting connections all closed at 1 s, beside `load`; FDs back to 42 during it.
Observation observe_closed_beside(clients::LoadResult load) {
  return observe(
      {waiting("silent", Ending::close, 1s), waiting("partial-header", Ending::close, 1s)},
      std::move(load), 42);
}

Expectations expect_mix() {
  const auto closure = [](std::string kind, Since since) {
    return ClosureExpectation{.kind = std::move(kind),
                              .since = since,
                              .deadline = 1s,
                              .slack = 250ms,
                              .endings = {ends::closed}};
  };
  return {.connections = 2,
          .patience = 3s,
          .closure = std::nullopt,
          .kind_closures = {closure("silent", Since::connect),
                            closure("partial-header", Since::connect)},
          .load = LoadExpectation{.p99 = 50ms, .pool = 32},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = 5s};
}

TEST(JudgeLoad, PassesWaitingClosedInTimeAndEveryDispatchedRequestServed) {
  const auto o = observe(
      {waiting("silent", Ending::close, 1s), waiting("partial-header", Ending::close, 1100ms)},
      healthy_load(), 42);
  EXPECT_THAT(judge(o, expect_mix()).findings, IsEmpty());
}

// Each kind is judged on its own connections, and the finding names the kind.
TEST(JudgeLoad, NamesTheKindWhoseConnectionsStayedOpen) {
  const auto o =
      observe({waiting("silent", Ending::close, 1s), waiting("partial-header", Ending::open, 3s)},
              healthy_load(), 42);
  EXPECT_THAT(judge(o, expect_mix()).findings,
              ElementsAre(AllOf(counted(codes::kStillOpen, 1, 1),
                                Field(&Finding::subject, "partial-header"),
                                Field(&Finding::measured, Optional(3.0)))));
}

// Asserted on dispatched, never on requested; what failed is named by status and error.
TEST(JudgeLoad, CountsDispatchedRequestsNotAnswered2xx) {
  auto load = healthy_load();
  load.requested = 6000;  // behind schedule: reported, not judged
  load.succeeded = 4990;
  load.non_2xx[503] = 7;
  load.errors["reset"] = 3;
  const auto o = observe_closed_beside(load);
  EXPECT_THAT(
      judge(o, expect_mix()).findings,
      ElementsAre(with_class(
          FindingClass::answer,
          AllOf(counted(codes::kNon2xx, 10, 5000),
                Field(&Finding::failures, ElementsAre(Pair("503", 7u), Pair("reset", 3u)))))));
}

// Only timeouts while the load's thread wanted a CPU 93% of the load: a client limit (the
// answers may have waited for a client too busy to read them); with another failure beside
// them, or at 60%, the server's.
TEST(JudgeLoad, TimeoutsWhileTheLoadThreadWasShortOfCpuAreAClientLimit) {
  auto load = healthy_load();
  load.succeeded = 4990;
  load.errors["timeout"] = 10;
  load.client = {.wall_s = 10.0, .busy = 0.93, .cpu_s = 9.5};
  EXPECT_THAT(judge(observe_closed_beside(load), expect_mix()).findings,
              ElementsAre(with_class(FindingClass::infrastructure,
                                     AllOf(counted(codes::kNon2xx, 10, 5000),
                                           Field(&Finding::client_busy, Optional(0.93))))));
  load.client.busy = 0.6;
  EXPECT_THAT(judge(observe_closed_beside(load), expect_mix()).findings,
              ElementsAre(with_class(FindingClass::answer,
                                     Field(&Finding::client_busy, std::nullopt))));
  load.client.busy = 0.93;
  load.errors["timeout"] = 9;
  load.non_2xx[503] = 1;
  EXPECT_THAT(judge(observe_closed_beside(load), expect_mix()).findings,
              ElementsAre(with_class(FindingClass::answer,
                                     Field(&Finding::client_busy, std::nullopt))));
}

// A load that dispatched nothing (its schedule had none due) is that one finding: no load
// ran to be too short (its end before its start) or to hold FDs during.
TEST(JudgeLoad, ALoadThatDispatchedNothingIsOnlyThat) {
  clients::LoadResult none;
  none.started = kT0 + 1s;
  none.ended = kT0 + 958ms;
  auto o = observe_closed_beside(none);
  o.timeline.push_back(sample(500ms, 500));
  EXPECT_THAT(judge(o, expect_mix()).findings,
              ElementsAre(with_class(FindingClass::infrastructure,
                                     has_code(codes::kNoLoadDispatched))));
}

TEST(JudgeLoad, FailsAP99AboveTheTargetsBound) {
  auto load = healthy_load();
  for (int i = 0; i < 100; ++i) load.from_intended.record(900ms);
  const auto o = observe_closed_beside(load);
  EXPECT_THAT(
      judge(o, expect_mix()).findings,
      ElementsAre(with_class(
          FindingClass::capacity,
          AllOf(has_code(codes::kP99OverBound), Field(&Finding::measured, Optional(Gt(50.0))),
                Field(&Finding::bound, Optional(50.0)), Field(&Finding::unit, "ms")))));
}

// The same p99 while loiter's load thread wanted a CPU 93% of the load: a client limit, the
// run's finding (infrastructure) with the share it measured; at 84% still the server's.
TEST(JudgeLoad, AP99AboveTheBoundWhileTheLoadThreadWasShortOfCpuIsAClientLimit) {
  auto load = healthy_load();
  for (int i = 0; i < 100; ++i) load.from_intended.record(900ms);
  load.client = {.wall_s = 10, .busy = 0.93, .cpu_s = 9.5};
  EXPECT_THAT(judge(observe_closed_beside(load), expect_mix()).findings,
              ElementsAre(with_class(FindingClass::infrastructure,
                                     AllOf(has_code(codes::kP99OverBound),
                                           Field(&Finding::client_busy, Optional(0.93))))));
  load.client.busy = 0.84;
  EXPECT_THAT(judge(observe_closed_beside(load), expect_mix()).findings,
              ElementsAre(with_class(FindingClass::capacity,
                                     AllOf(has_code(codes::kP99OverBound),
                                           Field(&Finding::client_busy, std::nullopt)))));
}

// Closure observed, FDs kept: while the load still ran the server held more than its pool.
TEST(JudgeLoad, FailsFdsNotBackToBaselinePlusPoolWhileTheLoadRan) {
  const auto o =
      observe({waiting("silent", Ending::close, 1s), waiting("partial-header", Ending::close, 1s)},
              healthy_load(), 44);
  EXPECT_THAT(judge(o, expect_mix()).findings,
              ElementsAre(with_class(FindingClass::resources,
                                     AllOf(has_code(codes::kFdsDuringLoad), figure(44, 42),
                                           Field(&Finding::baseline, Optional(10u)),
                                           Field(&Finding::pool, Optional(32u))))));
}

TEST(LoadFigures, TakesTheSeedsQuantitiesFromTheObservation) {
  const auto o = observe(
      {waiting("silent", Ending::close, 1s), waiting("partial-header", Ending::close, 1500ms)},
      healthy_load(), 42);
  const auto figures = load_figures(o);
  ASSERT_TRUE(figures.has_value());
  EXPECT_EQ(figures->all_waiting_closed, 2500ms);  // connected at 1 s, closed 1.5 s later
  EXPECT_EQ(figures->fds_during, 42u);
  EXPECT_EQ(figures->fds.start, 42u);
  EXPECT_EQ(figures->fds.peak, 45u);
  EXPECT_EQ(figures->fds.end, 10u);
  EXPECT_EQ(figures->load_lasted, 10s);
}

TEST(LoadFigures, NoLastClosureWhileAWaitingConnectionWasNeverClosed) {
  const auto o = observe({waiting("silent", Ending::open, 3s)}, healthy_load(), 42);
  EXPECT_FALSE(load_figures(o)->all_waiting_closed.has_value());
}

}  // namespace
}  // namespace loiter::suites
