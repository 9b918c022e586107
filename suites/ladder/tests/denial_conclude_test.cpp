// The denial ladder's conclusions on canned steps: denied or not, what the server ran into,
// a kind's knee, two sides' knees compared.
#include <gtest/gtest.h>

#include "loiter/suites/ladder/denial_conclude.hpp"

namespace loiter::suites::ladder {
namespace denial_conclude_test {

using reports::DenialCause;
using reports::DenialStep;
using reports::KneeChange;

// A step holding `held` connections with `succeeded` of 2,500 regular requests answered 2xx.
DenialStep step(std::size_t held, std::uint64_t succeeded, double p99_ms = 5) {
  return {.held = held,
          .held_reached = held,
          .requested = 2500,
          .succeeded = succeeded,
          .errors = 2500 - succeeded,
          .error_kinds = {{"timeout", 2500 - succeeded}},
          .p99_ms = p99_ms,
          .server_fds_before = 10,
          .server_fds_peak = 10 + held,
          .server_fd_limit = 20000,
          .server_busy = 0.2,
          .backlog = 511};
}

TEST(DenialStep, EverythingAnsweredInTimeIsNotDenied) {
  auto s = step(1000, 2500);
  conclude_step(s, 200, 0.99);
  EXPECT_FALSE(s.denied);
  EXPECT_TRUE(s.why.empty());
  EXPECT_EQ(s.cause, DenialCause::none);
}

TEST(DenialStep, TooFew2xxIsDeniedWithTheShareAndTheErrors) {
  auto s = step(1000, 2470);  // 98.8%
  conclude_step(s, 200, 0.99);
  EXPECT_TRUE(s.denied);
  EXPECT_EQ(s.why, "2xx 98.8% of 2500 requests < 99.0%; timeout 30");
  auto t = step(1000, 2476);  // 99.04%: enough
  conclude_step(t, 200, 0.99);
  EXPECT_FALSE(t.denied);
}

TEST(DenialStep, AP99PastTheBoundIsDenied) {
  auto s = step(1000, 2500, 812.5);
  conclude_step(s, 200, 0.99);
  EXPECT_TRUE(s.denied);
  EXPECT_EQ(s.why, "p99 812.5 ms > 200 ms");
}

TEST(DenialCauses, DescriptorsAtTheLimitAreTheFdLimit) {
  auto s = step(300, 0);
  s.server_fds_peak = 250;
  s.server_fd_limit = 256;
  s.accept_queue_peak = 511;  // full too: the limit is what made it so
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::fd_limit);
  EXPECT_EQ(s.cause_note, "descriptors 250 of its limit 256");
}

TEST(DenialCauses, AFullQueueWhileItAcceptedFewerThanHeldIsAConnectionCap) {
  auto s = step(1000, 0);
  s.server_fds_peak = 10 + 500;  // 500 accepted of 1,000 held
  s.accept_queue_peak = 511;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::connection_cap);
  EXPECT_NE(s.cause_note.find("it stopped accepting: 500 more descriptors for 1000 held "
                              "connections, accept queue 511/511"),
            std::string::npos)
      << s.cause_note;
}

TEST(DenialCauses, FewerHeldThanAskedWhileItGainedFewerDescriptorsIsAConnectionCap) {
  auto s = step(10000, 0);
  s.held_reached = 4109;  // it ends what is past its cap at once: reconnected without end
  s.server_fds_peak = 10 + 4095;
  s.connects_per_s = 10385;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::connection_cap);
  EXPECT_EQ(s.cause_note, "only 4109 of 10000 stayed open at once (4095 more descriptors): it "
                          "ended or left waiting the rest, 10385 reconnects a second; accept "
                          "queue 0/511");
}

TEST(DenialCauses, AServerThatEndsTheRegularTrafficAtItsCapIsItsLimitThoughLoiterWasBusy) {
  auto s = step(5000, 0);
  s.held_reached = 4095;
  s.server_fds_peak = 10 + 4095;
  s.holder_busy = 0.89;
  s.error_kinds = {{"closed", 2240}, {"reset", 260}};
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::connection_cap) << s.cause_note;
  EXPECT_NE(s.cause_note.find("it ended 2500 of the regular requests"), std::string::npos);
  s.error_kinds = {{"timeout", 2500}};  // nothing the server ended: loiter's limit as much
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::client) << s.cause_note;
}

TEST(DenialCauses, HeldConnectionsWaitingInAQueueNotFullAreAConnectionCapToo) {
  auto s = step(256, 0);
  s.server_fds_peak = 10 + 64;  // a pool of 64, the other 192 waiting
  s.accept_queue_peak = 192;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::connection_cap);
  auto t = step(256, 0);
  t.server_fds_peak = 10 + 64;  // none waiting in its queue: not what it ran into
  t.accept_queue_peak = 3;
  conclude_step(t, 200, 0.99);
  EXPECT_EQ(t.cause, DenialCause::unknown);
}

TEST(DenialCauses, RegularConnectionsWaitingWhileItsCpusHadRoomAreAConnectionCap) {
  auto s = step(30, 630);  // Apache: 25 workers taken by 30 trickled heads
  s.server_fds_peak = 58;
  s.server_fds_before = 19;
  s.accept_queue_peak = 23;
  s.server_busy = 0.02;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::connection_cap);
  EXPECT_EQ(s.cause_note, "connections waited in its accept queue 23/511 while its CPUs were "
                          "2.0% busy and it held 39 more descriptors: what it serves them from "
                          "was taken");
  s.accept_queue_peak = 9;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::unknown);
  auto late = step(10000, 2500, 280);  // every one answered, late: a server behind
  late.accept_queue_peak = 371;
  late.server_busy = 0.6;
  conclude_step(late, 200, 0.99);
  EXPECT_EQ(late.cause, DenialCause::unknown);
}

TEST(DenialCauses, AFullQueueThoughEveryHeldOneWasAcceptedIsTheAcceptQueue) {
  auto s = step(1000, 0);
  s.accept_queue_peak = 511;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::accept_queue);
}

TEST(DenialCauses, BusyCpusComeBeforeWhatFilledUpMeanwhile) {
  auto s = step(10000, 0);  // python: 5,900 threads woken by a byte each, its queue full
  s.held_reached = 5895;
  s.server_fds_peak = 10 + 5827;
  s.accept_queue_peak = 6;
  s.backlog = 5;
  s.server_busy = 1.03;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::cpu);
  EXPECT_EQ(s.cause_note, "its CPUs 103.0% busy");
}

TEST(DenialCauses, BusyCpusWithRoomElsewhereAreTheCpu) {
  auto s = step(1000, 0);
  s.server_busy = 0.97;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::cpu);
  auto t = step(1000, 0);
  conclude_step(t, 200, 0.99);
  EXPECT_EQ(t.cause, DenialCause::unknown);
}

TEST(DenialCauses, LoitersOwnBusyThreadsAreTheClientWhereTheServerShowsNoLimit) {
  auto s = step(10000, 2500, 226);
  s.holder_busy = 0.92;
  s.server_busy = 0.65;
  conclude_step(s, 200, 0.99);
  EXPECT_TRUE(s.denied);
  EXPECT_EQ(s.cause, DenialCause::client);
  EXPECT_EQ(s.cause_note, "loiter's holder wanted a CPU 92.0% of the time, its server 65.0% "
                          "busy: the denial may be loiter's own");
  s.server_fds_peak = s.server_fds_before + 100;  // and a connection cap besides: the server's
  s.accept_queue_peak = 4000;
  conclude_step(s, 200, 0.99);
  EXPECT_EQ(s.cause, DenialCause::connection_cap);
}

TEST(DenialKnee, TheFirstDeniedStepOrNotDeniedUpToTheLast) {
  reports::DenialKind kind{.kind = "silent", .steps = {step(100, 2500), step(1000, 2500)}};
  for (auto& s : kind.steps) conclude_step(s, 200, 0.99);
  conclude_kind(kind);
  EXPECT_FALSE(kind.knee);
  EXPECT_EQ(kind.highest, 1000U);
  kind.steps.push_back(step(10000, 0));
  conclude_step(kind.steps.back(), 200, 0.99);
  conclude_kind(kind);
  EXPECT_EQ(kind.knee, 10000U);
}

reports::DenialSide side(std::vector<std::pair<std::size_t, std::uint64_t>> steps) {
  reports::DenialKind kind{.kind = "silent"};
  for (const auto& [held, ok] : steps) {
    kind.steps.push_back(step(held, ok));
    conclude_step(kind.steps.back(), 200, 0.99);
  }
  conclude_kind(kind);
  return {.kinds = {kind}};
}

TEST(DenialCompare, AKneeThatDropsIsLowerAndOneThatRisesHigher) {
  const auto shipped = side({{100, 2500}, {1000, 0}});
  const auto bigger = side({{100, 2500}, {1000, 2500}, {10000, 2500}});
  const auto rows = compare_knees(bigger, shipped, 10000);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].change, KneeChange::lower);
  EXPECT_EQ(rows[0].candidate_knee, 1000U);
  EXPECT_FALSE(rows[0].baseline_knee);
  EXPECT_EQ(compare_knees(shipped, bigger, 10000)[0].change, KneeChange::higher);
  EXPECT_EQ(compare_knees(shipped, shipped, 10000)[0].change, KneeChange::same);
}

TEST(DenialCompare, ASideCutShortIsNotComparable) {
  const auto whole = side({{100, 2500}, {1000, 2500}});
  const auto cut = side({{100, 2500}});  // interrupted before 1,000
  EXPECT_EQ(compare_knees(whole, cut, 1000)[0].change, KneeChange::not_comparable);
}

}  // namespace denial_conclude_test
}  // namespace loiter::suites::ladder
