// judge() on held-capacity: every connection held at once before the re-checks began (the
// last first answer before the first re-check), over HTTP/1.1 and over HTTP/2, whose
// acknowledgements are sends of their own.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "canned_connections.hpp"
#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_held_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;
using ::testing::DoubleNear;

// held-capacity: a connection held, re-checked and closed by the client, connected at
// `connect` (from `t0`), its first answer 10 ms later and the re-check sent at `recheck`.
ConnectionRecord held(clients::Clock::time_point t0, Duration connect, Duration recheck) {
  auto record = ended(Ending::client_close, recheck - connect + 500ms);
  record.connect_start = t0 + connect;
  record.client_closed = record.ended_at;
  record.requests = 2;
  record.sends = {{.at = 0ms, .bytes = 40}, {.at = recheck - connect, .bytes = 40}};
  record.responses = {whole(200, 10ms), whole(200, recheck - connect + 10ms)};
  record.responses[0].started = 5ms;
  record.responses[1].started = recheck - connect + 5ms;
  return record;
}

// The same over HTTP/2: the client's SETTINGS ACK goes out around its first answer and a
// PING ACK during the hold, sends of their own beside the two streams'.
ConnectionRecord held_h2(clients::Clock::time_point t0, Duration connect, Duration recheck) {
  auto record = held(t0, connect, recheck);
  const auto at = recheck - connect;
  record.sends = {{.at = 0ms, .bytes = 90},
                  {.at = 11ms, .bytes = 9},
                  {.at = at / 2, .bytes = 17},
                  {.at = at, .bytes = 30}};
  return record;
}

// Held capacity: three connections, each answered twice (the re-check) and ended by the
// client, all held together.
Expectations expect_three_held_at_once() {
  auto expectations = expect_completion(2);
  expectations.completion->client_ends = true;
  expectations.completion->outlives = 0ms;
  expectations.completion->held_at_once = true;
  expectations.connections = 3;
  return expectations;
}

TEST(Judge, HeldCapacityNeedsEveryConnectionHeldAtOnce) {
  const auto t0 = clients::Clock::now();
  const auto expectations = expect_three_held_at_once();
  const auto all_held = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), held(t0, 900ms, 1500ms)};
  EXPECT_THAT(judge(observe(all_held), expectations).findings, IsEmpty());
  // The third connected only after the re-checks had begun: never all three held together.
  const auto one_late = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), held(t0, 2000ms, 2500ms)};
  EXPECT_THAT(judge(observe(one_late), expectations).findings,
              ElementsAre(with_class(FindingClass::capacity,
                                     AllOf(counted(codes::kNotHeldAtOnce, 1, 3),
                                           Field(&Finding::measured, Optional(0.51)),
                                           Field(&Finding::connected_late, Optional(1u)),
                                           Field(&Finding::most_at_once, Optional(2u)),
                                           Field(&Finding::connections, Optional(3u))))));
  // All connected in time, the third answered late: the server's doing.
  auto slow_answer = held(t0, 900ms, 1610ms);  // its re-check follows its late first answer
  slow_answer.responses[0].complete = 700ms;   // answered at 1.6 s, after the re-checks began
  const auto answered_late = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), slow_answer};
  EXPECT_THAT(judge(observe(answered_late), expectations).findings,
              ElementsAre(AllOf(counted(codes::kNotHeldAtOnce, 1, 3),
                                Field(&Finding::measured, Optional(0.1)),
                                Field(&Finding::connected_late, Optional(0u)))));
}

// A fleet that opened late while the thread of loiter's that drove it wanted a CPU 92% of the
// run: a client limit, the run's finding; at 60% the same lateness is the server's to answer.
TEST(Judge, HeldCapacityNotHeldWhileTheFleetsThreadWasShortOfCpuIsAClientLimit) {
  const auto t0 = clients::Clock::now();
  const auto one_late = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), held(t0, 2000ms, 2500ms)};
  auto o = observe(one_late);
  o.fleet_cost = clients::ClientCost{.wall_s = 3.0, .busy = 0.92, .cpu_s = 2.9};
  EXPECT_THAT(judge(o, expect_three_held_at_once()).findings,
              ElementsAre(with_class(FindingClass::infrastructure,
                                     AllOf(counted(codes::kNotHeldAtOnce, 1, 3),
                                           Field(&Finding::client_busy, Optional(0.92))))));
  o.fleet_cost->busy = 0.6;
  EXPECT_THAT(judge(o, expect_three_held_at_once()).findings,
              ElementsAre(with_class(FindingClass::capacity,
                                     Field(&Finding::client_busy, std::nullopt))));
}

TEST(Judge, HeldCapacityOverH2TakesTheSendBeforeTheSecondAnswerForTheRecheck) {
  const auto t0 = clients::Clock::now();
  const auto expectations = expect_three_held_at_once();
  // The acknowledgements are not the re-check: the three were held together.
  const auto all_held = {held_h2(t0, 0ms, 1500ms), held_h2(t0, 100ms, 1500ms),
                         held_h2(t0, 900ms, 1500ms)};
  EXPECT_THAT(judge(observe(all_held), expectations).findings, IsEmpty());
  const auto one_late = {held_h2(t0, 0ms, 1500ms), held_h2(t0, 100ms, 1500ms),
                         held_h2(t0, 2000ms, 2500ms)};
  EXPECT_THAT(judge(observe(one_late), expectations).findings,
              ElementsAre(AllOf(counted(codes::kNotHeldAtOnce, 1, 3),
                                Field(&Finding::measured, Optional(0.51)))));
}

// A sample of the server at `after` (from `t0`): its FDs and its listener's accept queue.
fixtures::TimedSample queued(clients::Clock::time_point t0, Duration after, std::size_t fds,
                             std::size_t accept_queue) {
  fixtures::TimedSample s{.at = t0 + after, .sample = {}};
  s.sample.processes = 1;
  s.sample.fds = fds;
  s.sample.tcp = fixtures::TcpCounts{.accept_queue = accept_queue, .backlog = 4096};
  return s;
}

// The third connection connected in time but was answered after the re-checks began.
Observation answered_late(clients::Clock::time_point t0) {
  auto slow_answer = held(t0, 900ms, 1610ms);
  slow_answer.responses[0].complete = 700ms;
  auto observation = observe({held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), slow_answer});
  observation.fds.baseline = 11;
  observation.fds.peak = 511;
  return observation;
}

// Connections answered late although every one had connected: the accept queue tells a cap
// (connections wait there while the server takes none, its FDs flat) from a slow accept loop
// (it keeps taking from the queue) and from slow first answers (nothing waits there).
TEST(Judge, HeldCapacityAnsweredLateSaysWhatTheAcceptQueueShowed) {
  const auto t0 = clients::Clock::now();
  const auto expectations = expect_three_held_at_once();
  const auto text_of = [&](const Observation& o) {
    const auto findings = judge(o, expectations).findings;
    return findings.size() == 1 ? reports::text(findings.front()) : std::string("?");
  };
  // A cap of 500: the FDs stop at 511 while up to 500 wait, for 0.5 s, until the first close.
  auto capped = answered_late(t0);
  capped.timeline = {
      queued(t0, 0ms, 11, 0),      queued(t0, 100ms, 300, 0),   queued(t0, 200ms, 511, 100),
      queued(t0, 300ms, 511, 500), queued(t0, 400ms, 511, 500), queued(t0, 500ms, 511, 500),
      queued(t0, 600ms, 511, 500), queued(t0, 700ms, 511, 500), queued(t0, 800ms, 511, 0)};
  EXPECT_THAT(
      judge(capped, expectations).findings,
      ElementsAre(AllOf(
          counted(codes::kNotHeldAtOnce, 1, 3), Field(&Finding::accept_queue, Optional(500u)),
          Field(&Finding::backlog, Optional(4096u)), Field(&Finding::accept_stalled, Optional(0.5)),
          Field(&Finding::peak, Optional(511u)))));
  EXPECT_EQ(text_of(capped),
            "not every connection was held at once: 1/3 answered their first request only after "
            "the first re-check was sent (the last 0.100 s after it); all had connected before "
            "it, but up to 500 waited in the server's accept queue (backlog 4096), where for "
            "0.5 s it took none of them, while it held about 500 connections (its FDs 11→511): "
            "the server stops accepting at about 500 open connections (a worker or connection "
            "limit, as nginx's worker_connections or Apache's MaxRequestWorkers)");
  // A slow accept loop: the queue shrinks as the FDs grow.
  auto slow = answered_late(t0);
  slow.timeline = {queued(t0, 0ms, 11, 0),      queued(t0, 100ms, 61, 700),
                   queued(t0, 200ms, 111, 650), queued(t0, 300ms, 161, 600),
                   queued(t0, 400ms, 211, 550), queued(t0, 500ms, 261, 500)};
  EXPECT_THAT(text_of(slow),
              HasSubstr("all had connected before it, but up to 700 waited in the server's "
                        "accept queue (backlog 4096), which it kept taking from, slowly (its FDs "
                        "11→511): a slow accept loop"));
  // One interval of no change in a slow loop (caught between two accepts) is not a cap:
  // a stall counts from two of the timeline's sampling intervals, or from 0.2 s where those
  // are longer (a starved sampler).
  auto between = answered_late(t0);
  between.timeline = {queued(t0, 0ms, 11, 0),      queued(t0, 100ms, 61, 700),
                      queued(t0, 200ms, 61, 700),  queued(t0, 300ms, 161, 600),
                      queued(t0, 400ms, 211, 550), queued(t0, 500ms, 261, 500)};
  EXPECT_THAT(judge(between, expectations).findings,
              ElementsAre(Field(&Finding::accept_stalled, Optional(0.0))));
  EXPECT_THAT(text_of(between), HasSubstr("a slow accept loop"));
  auto sampled_fast = answered_late(t0);
  sampled_fast.timeline = {queued(t0, 0ms, 11, 0), queued(t0, 50ms, 511, 500),
                           queued(t0, 100ms, 511, 500), queued(t0, 150ms, 511, 500),
                           queued(t0, 200ms, 511, 0)};
  EXPECT_THAT(judge(sampled_fast, expectations).findings,
              ElementsAre(Field(&Finding::accept_stalled, Optional(DoubleNear(0.1, 1e-9)))));
  EXPECT_THAT(text_of(sampled_fast), HasSubstr("stops accepting at about 500"));
  // A starved sampler, every 300 ms: one interval of no change is 0.3 s without a connection
  // taken, which no slow loop shows; a cap.
  auto sampled_slowly = answered_late(t0);
  sampled_slowly.timeline = {queued(t0, 0ms, 11, 0), queued(t0, 300ms, 311, 200),
                             queued(t0, 600ms, 511, 500), queued(t0, 900ms, 511, 500),
                             queued(t0, 1200ms, 511, 0)};
  EXPECT_THAT(judge(sampled_slowly, expectations).findings,
              ElementsAre(Field(&Finding::accept_stalled, Optional(DoubleNear(0.3, 1e-9)))));
  EXPECT_THAT(text_of(sampled_slowly), HasSubstr("stops accepting at about 500"));
  // Nothing waited: accepted at once, answered late.
  auto slow_first = answered_late(t0);
  slow_first.timeline = {queued(t0, 0ms, 11, 0), queued(t0, 100ms, 511, 0)};
  EXPECT_THAT(text_of(slow_first), HasSubstr("none waited in the server's accept queue"));
  // No TCP samples: the words that name both causes.
  EXPECT_THAT(text_of(answered_late(t0)),
              HasSubstr("(a slow accept loop, or slow first requests)"));
}

// A fleet that opened late beside a capped server (a busy machine slows the one, the cap
// makes the other): some connected only after the re-checks began, and one that connected in
// time was still answered late while connections waited in the accept queue. The finding
// names both causes, so the cap is named whatever the opening did.
TEST(Judge, HeldCapacityNamesTheCapAlsoWhenSomeConnectedLate) {
  const auto t0 = clients::Clock::now();
  auto expectations = expect_three_held_at_once();
  expectations.connections = 4;
  auto slow_answer = held(t0, 900ms, 1610ms);
  slow_answer.responses[0].complete = 700ms;  // connected in time, answered at 1.6 s
  auto o = observe({held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), slow_answer,
                    held(t0, 2000ms, 2500ms)});
  o.fds.baseline = 11;
  o.fds.peak = 511;
  o.timeline = {queued(t0, 0ms, 11, 0),      queued(t0, 100ms, 300, 0),
                queued(t0, 200ms, 511, 100), queued(t0, 300ms, 511, 500),
                queued(t0, 400ms, 511, 500), queued(t0, 500ms, 511, 500),
                queued(t0, 600ms, 511, 500), queued(t0, 700ms, 511, 500),
                queued(t0, 800ms, 511, 0)};
  const auto findings = judge(o, expectations).findings;
  ASSERT_THAT(findings, ElementsAre(AllOf(counted(codes::kNotHeldAtOnce, 2, 4),
                                          Field(&Finding::connected_late, Optional(1u)),
                                          Field(&Finding::accept_queue, Optional(500u)),
                                          Field(&Finding::accept_stalled, Optional(0.5)))));
  EXPECT_THAT(reports::text(findings.front()),
              AllOf(HasSubstr("1 connected only after it, and at most 3 of 4 were connected at "
                              "the same time: the fleet opened slower than planned"),
                    HasSubstr("; and 1 of them had connected before it, but up to 500 waited in "
                              "the server's accept queue (backlog 4096), where for 0.5 s it took "
                              "none of them"),
                    HasSubstr("stops accepting at about 500 open connections")));
  // Only the late-connected ones answered late: the opening alone, no accept queue read.
  auto opening_only = observe({held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms),
                               held(t0, 900ms, 1500ms), held(t0, 2000ms, 2500ms)});
  opening_only.timeline = o.timeline;
  EXPECT_THAT(judge(opening_only, expectations).findings,
              ElementsAre(AllOf(counted(codes::kNotHeldAtOnce, 1, 4),
                                Field(&Finding::accept_queue, std::nullopt))));
}

}  // namespace judge_held_test
}  // namespace loiter::suites
