// A step's medians, its limit and the knee, on canned trials.
#include <gtest/gtest.h>

#include "loiter/suites/ladder/conclude.hpp"

namespace loiter::suites::ladder {
namespace {

using reports::LadderStep;
using reports::LadderTrial;
using reports::Limit;
using reports::StepKind;

// A trial of `seconds` s: `requested` due, `dispatched` sent, all sent answered 2xx.
LadderTrial trial(std::uint64_t requested, std::uint64_t dispatched, double p99_ms,
                  double busy = 0.3, double seconds = 2) {
  return {.seconds = seconds,
          .requested = requested,
          .dispatched = dispatched,
          .succeeded = dispatched,
          .p50_ms = p99_ms / 4,
          .p99_ms = p99_ms,
          .client_busy = busy,
          .server_cpu_s = static_cast<double>(dispatched) * 20e-6};
}

LadderStep rate_step(double rate, std::vector<LadderTrial> trials) {
  return {.kind = StepKind::rate, .rate = rate, .connections = 64, .trials = std::move(trials)};
}

TEST(LadderStep, MediansOverTheTrialsAndWithinWhenEverythingWasAnsweredInTime) {
  auto step = rate_step(1000, {trial(2000, 2000, 3), trial(2000, 2000, 9), trial(2000, 2000, 5)});
  conclude_step(step, 200);
  EXPECT_DOUBLE_EQ(step.requested_rate, 1000);
  EXPECT_DOUBLE_EQ(step.succeeded_rate, 1000);
  EXPECT_DOUBLE_EQ(step.p99_ms, 5);
  EXPECT_NEAR(step.server_cpu_us_per_request, 20, 1e-9);
  EXPECT_TRUE(step.within);
  EXPECT_EQ(step.limit, Limit::none);
  EXPECT_TRUE(step.note.empty());
}

TEST(LadderStep, AP99OverTheBoundIsTheServersLimitWhenTheClientHadRoom) {
  auto step = rate_step(1000, {trial(2000, 2000, 300), trial(2000, 2000, 250), trial(2000, 2000, 5)});
  conclude_step(step, 200);
  EXPECT_FALSE(step.within);
  EXPECT_EQ(step.limit, Limit::server);
  EXPECT_NE(step.note.find("p99 250 ms over the 200 ms bound"), std::string::npos) << step.note;
}

TEST(LadderStep, AShortfallWithTheLoadThreadBusyIsTheClientsLimitWithItsMeasuredRate) {
  auto step = rate_step(50000, {trial(100000, 82000, 40, 0.97), trial(100000, 80000, 45, 0.99),
                                trial(100000, 81000, 38, 0.95)});
  conclude_step(step, 200);
  EXPECT_FALSE(step.within);
  EXPECT_EQ(step.limit, Limit::client);
  EXPECT_NE(step.note.find("loiter's client ran out"), std::string::npos) << step.note;
  EXPECT_NE(step.note.find("dispatched 40,500/s of 50,000/s"), std::string::npos) << step.note;
}

TEST(LadderStep, AClientLimitWithEverythingSentLateStillSaysWhatItDispatched) {
  auto step = rate_step(100000, {trial(200000, 200000, 246, 0.89)});
  conclude_step(step, 200);
  EXPECT_EQ(step.limit, Limit::client);
  EXPECT_NE(step.note.find("dispatched 100,000/s of 100,000/s; p99 246 ms over the 200 ms bound, with"),
            std::string::npos)
      << step.note;
}

TEST(LadderStep, AShortfallWithTheClientAndTheServerBothBusyIsBoth) {
  auto busy = trial(200000, 114000, 2700, 0.88);
  busy.server_busy = 0.95;
  auto step = rate_step(100000, {busy});
  conclude_step(step, 200);
  EXPECT_EQ(step.limit, Limit::both);
  EXPECT_NE(step.note.find("cannot tell whose limit"), std::string::npos) << step.note;
  EXPECT_NE(step.note.find("dispatched 57,000/s of 100,000/s"), std::string::npos) << step.note;
}

TEST(LadderStep, AShortfallWithTheLoadThreadIdleIsTheServers) {
  // Every pool connection waited on the server: the client had the CPU to send.
  auto step = rate_step(50000, {trial(100000, 60000, 900, 0.2), trial(100000, 61000, 950, 0.25)});
  conclude_step(step, 200);
  EXPECT_EQ(step.limit, Limit::server);
}

TEST(LadderStep, ErrorsAndNon2xxKeepAStepOutEvenWithAFastP99) {
  auto bad = trial(2000, 2000, 2);
  bad.succeeded = 1990;
  bad.errors = 10;
  bad.error_kinds = {{"timeout", 10}};
  auto step = rate_step(1000, {bad, bad, trial(2000, 2000, 2)});
  conclude_step(step, 200);
  EXPECT_FALSE(step.within);
  EXPECT_EQ(step.errors, 20u);
  EXPECT_NE(step.note.find("timeout 20"), std::string::npos) << step.note;
}

TEST(LadderStep, SaturationHasNoBoundAndNamesTheClientWhenItRanOutFirst) {
  LadderStep step{.kind = StepKind::saturation,
                  .connections = 64,
                  .trials = {trial(60000, 60000, 4, 0.96), trial(62000, 62000, 4, 0.97)}};
  conclude_step(step, 200);
  EXPECT_FALSE(step.within);
  EXPECT_EQ(step.limit, Limit::client);
  EXPECT_DOUBLE_EQ(step.succeeded_rate, 30500);
  EXPECT_NE(step.note.find("client's ceiling"), std::string::npos) << step.note;
}

TEST(LadderKnee, TheHighestStepWithEveryStepBelowItWithin) {
  reports::LadderSide side{.steps = {rate_step(1000, {trial(2000, 2000, 2)}),
                                     rate_step(2000, {trial(4000, 4000, 3)}),
                                     rate_step(5000, {trial(10000, 10000, 500)}),
                                     rate_step(10000, {trial(20000, 20000, 3)})}};
  conclude_side(side, 200);
  ASSERT_TRUE(side.knee.has_value());
  EXPECT_DOUBLE_EQ(*side.knee, 2000);  // 10,000/s was within, but 5,000/s was not
  EXPECT_NE(side.knee_note.find("at 5,000/s"), std::string::npos) << side.knee_note;
  EXPECT_NE(side.knee_note.find("the server fell short"), std::string::npos) << side.knee_note;
}

TEST(LadderKnee, AClientLimitAboveTheKneeSaysTheServersKneeIsAtLeastThat) {
  reports::LadderSide side{.steps = {rate_step(1000, {trial(2000, 2000, 2)}),
                                     rate_step(100000, {trial(200000, 150000, 9, 0.99)})}};
  conclude_side(side, 200);
  ASSERT_TRUE(side.knee.has_value());
  EXPECT_DOUBLE_EQ(*side.knee, 1000);
  EXPECT_NE(side.knee_note.find("at least"), std::string::npos) << side.knee_note;
}

TEST(LadderKnee, NoneWhenTheFirstStepIsNotWithin) {
  reports::LadderSide side{.steps = {rate_step(1000, {trial(2000, 2000, 900)})}};
  conclude_side(side, 200);
  EXPECT_FALSE(side.knee.has_value());
  EXPECT_NE(side.knee_note.find("at 1,000/s"), std::string::npos);
}

TEST(LadderKnee, AStepTheUserStoppedBeforeIsNeitherWithinNorAnyonesLimit) {
  reports::LadderSide side{.steps = {rate_step(1000, {trial(2000, 2000, 2)}), rate_step(2000, {})}};
  conclude_side(side, 200);
  EXPECT_EQ(side.steps[1].limit, Limit::none);
  EXPECT_FALSE(side.steps[1].within);
  EXPECT_DOUBLE_EQ(*side.knee, 1000);
  EXPECT_NE(side.knee_note.find("stopped before 2,000/s"), std::string::npos) << side.knee_note;
}

}  // namespace
}  // namespace loiter::suites::ladder
