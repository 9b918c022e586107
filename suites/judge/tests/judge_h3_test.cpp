// judge() over HTTP/3: a deadline the server keeps silently, judged by probes on both sides
// of it; a stalled request stream ended by RESET_STREAM; the idle timeout advertised; the
// CONNECTION_CLOSE code; the amplification limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_h3_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

// An h3-idle connection, quiet from 50 ms, one probe at `probe` (answered or not).
ConnectionRecord idle_record(Duration probe, bool answered) {
  ConnectionRecord record;
  record.kind = "h3-idle";
  record.h3 = clients::H3Record{.handshake_done = 20ms, .idle_advertised = 2s, .last_sent = 50ms};
  record.h3->probes.push_back(
      {.at = 50ms + probe,
       .answered = answered ? std::optional<Duration>(50ms + probe + 1ms) : std::nullopt});
  record.ending = answered ? Ending::client_close : Ending::gone;
  record.ended_at = 50ms + probe;
  return record;
}

// The h3-idle expectation: a 2 s idle deadline ± 250 ms from the client's last packet.
Expectations expect_idle(std::size_t connections) {
  return {.connections = connections,
          .patience = 5s,
          .h3 = H3Expectation{.deadline = 2s,
                              .since = Since::quiet,
                              .slack = 250ms,
                              .name = "idle",
                              .idle_advertised = 2s},
          .fds_after = 0,
          .recovery = 5s};
}

// Two connections, each to meet `h3` within 3 s of patience: the expectation of the tests of
// one h3 rule (the close code, the amplification limit).
Expectations expect_h3(H3Expectation h3) {
  return {.connections = 2, .patience = 3s, .h3 = std::move(h3), .fds_after = 0, .recovery = 5s};
}

Verdict judged(std::vector<ConnectionRecord> records, const Expectations& e) {
  Observation o{.scenario = "h3-idle", .connections = std::move(records)};
  o.fds.recovered = true;
  return judge(o, e);
}

TEST(JudgeH3, AnEarlyProbeAnsweredAndALateOneUnansweredPass) {
  const auto v = judged({idle_record(1625ms, true), idle_record(2125ms, false)}, expect_idle(2));
  EXPECT_TRUE(v.passed) << ::testing::PrintToString(v.findings);
}

TEST(JudgeH3, AnEarlyProbeUnansweredIsAConnectionDroppedEarly) {
  const auto v = judged({idle_record(1625ms, false), idle_record(2125ms, false)}, expect_idle(2));
  EXPECT_THAT(v.findings,
              Contains(AllOf(counted(codes::kProbeUnanswered, 1, 2), figure(1.625, 1.75))));
  EXPECT_THAT(reports::text(v.findings.front()), HasSubstr("after the client's last packet"));
}

TEST(JudgeH3, ALateProbeAnsweredIsAConnectionHeldPastItsDeadline) {
  const auto v = judged({idle_record(1625ms, true), idle_record(2125ms, true)}, expect_idle(2));
  EXPECT_THAT(v.findings,
              Contains(AllOf(counted(codes::kProbeAnswered, 1, 2), figure(2.125, 2.0))));
}

TEST(JudgeH3, AConnectionCloseBeforeAnyProbeIsTimedAsAClosure) {
  auto closed = idle_record(0ms, false);
  closed.h3->probes.clear();
  closed.ending = Ending::close;
  closed.h3->close = clients::H3Close{.at = 1050ms, .code = 0, .application = false};
  closed.ended_at = 1050ms;  // 1.0 s after the quiet began: early
  const auto v = judged({closed}, expect_idle(1));
  EXPECT_THAT(v.findings, Contains(AllOf(counted(codes::kClosedEarly, 1, 1), figure(1.0, 1.75))));
}

TEST(JudgeH3, AnotherIdleTimeoutAdvertisedIsAFinding) {
  auto never = idle_record(2125ms, true);
  never.h3->idle_advertised = 0s;  // the server disabled its idle timeout
  const auto v = judged({never}, expect_idle(1));
  EXPECT_THAT(v.findings, Contains(AllOf(counted(codes::kIdleAdvertised, 1, 1), figure(0, 2))));
  const auto found =
      std::ranges::find(v.findings, std::string(codes::kIdleAdvertised), &reports::Finding::code);
  EXPECT_THAT(reports::text(*found), HasSubstr("0 (no idle timeout)"));
}

// h3-control-stream-close: the connection must end with H3_CLOSED_CRITICAL_STREAM.
TEST(JudgeH3, TheCloseCodeIsJudged) {
  ConnectionRecord right;
  right.kind = "h3-control-close";
  right.h3 = clients::H3Record{.handshake_done = 20ms};
  right.h3->close = clients::H3Close{.at = 40ms, .code = 0x104, .application = true};
  right.ending = Ending::close;
  right.ended_at = 40ms;
  auto open = right;
  open.h3->close.reset();
  open.ending = Ending::open;
  open.ended_at = 3s;
  const auto e = expect_h3(H3Expectation{.close_code = 0x104});
  const auto v = judged({right, open}, e);
  ASSERT_THAT(v.findings, Contains(counted(codes::kWrongEnding, 1, 2)));
  EXPECT_THAT(reports::text(v.findings.front()),
              AllOf(HasSubstr("ended as open"), HasSubstr("H3_CLOSED_CRITICAL_STREAM")));
}

TEST(JudgeH3, MoreThanThreeTimesTheBytesBeforeValidationIsAFinding) {
  ConnectionRecord within, beyond;
  for (auto* r : {&within, &beyond}) {
    r->kind = "h3-amplification";
    r->h3 = clients::H3Record{.unvalidated_sent = 1200};
    r->ending = Ending::gone;
    r->ended_at = 1s;
  }
  within.h3->unvalidated_received = 3600;
  beyond.h3->unvalidated_received = 4800;
  const auto e = expect_h3(H3Expectation{.amplification = 3.0});
  const auto v = judged({within, beyond}, e);
  EXPECT_THAT(v.findings, Contains(AllOf(counted(codes::kAmplification, 1, 2), figure(4.0, 3.0))));
}

// A stalled request stream: its RESET_STREAM ends it, timed from its HEADERS.
TEST(JudgeH3, AStreamResetAtTheDeadlineEndsTheStallAndIsNamed) {
  ConnectionRecord r;
  r.kind = "h3-headers-stall";
  r.sends.push_back({.at = 30ms, .bytes = 20});
  r.h3 = clients::H3Record{.handshake_done = 20ms};
  r.h3->stream_ends.push_back({.at = 2030ms, .stream = 0, .code = 0x10d, .stop_sending = false});
  r.ending = Ending::client_close;
  r.ended_at = 2031ms;
  Expectations e{.connections = 1,
                 .patience = 5s,
                 .closure = ClosureExpectation{.since = Since::first_send,
                                               .deadline = 2s,
                                               .slack = 250ms,
                                               .endings = {ends::stream_reset},
                                               .name = "header",
                                               .stream = true},
                 .fds_after = 0,
                 .recovery = 5s};
  EXPECT_TRUE(judged({r}, e).passed);
  e.closure->endings = {ends::stream_answered(408)};
  const auto v = judged({r}, e);
  ASSERT_THAT(v.findings, Contains(counted(codes::kWrongEnding, 1, 1)));
  EXPECT_THAT(v.findings.front().ending, HasSubstr("RESET_STREAM H3_REQUEST_INCOMPLETE"));
}

// idle-under-load over HTTP/3 mixes kinds: each kind's probes are judged against its own
// deadline, and a finding names the kind it is about. Here the cut Initials kept their
// handshake deadline and the idle connections did not keep theirs.
TEST(JudgeH3, EachKindsProbesAreJudgedByItsOwnDeadlineInAMix) {
  auto stalled = idle_record(2125ms, false);
  stalled.kind = "h3-initial-stall";
  stalled.h3->handshake_done.reset();
  stalled.h3->probes.front().at = 2125ms;  // from its first Initial: after the deadline
  auto early = idle_record(1625ms, true);
  early.kind = "h3-initial-stall";
  early.h3->handshake_done.reset();
  early.h3->probes.front().at = 1625ms;
  Expectations e{.connections = 4, .patience = 5s, .fds_after = 0, .recovery = 5s};
  e.kind_h3 = {{.kind = "h3-initial-stall",
                .deadline = 2s,
                .since = Since::connect,
                .slack = 250ms,
                .name = "handshake"},
               {.kind = "h3-idle", .deadline = 2s, .since = Since::quiet, .slack = 250ms,
                .name = "idle"}};
  const auto held = judged({stalled, early, idle_record(1625ms, true), idle_record(2125ms, true)}, e);
  ASSERT_EQ(held.findings.size(), 1u) << ::testing::PrintToString(held.findings);
  EXPECT_THAT(held.findings.front(), counted(codes::kProbeAnswered, 1, 2));
  EXPECT_EQ(held.findings.front().subject, "h3-idle");
  // The same records judged as one kind: the idle deadline is not the handshake's.
  const auto kept = judged({stalled, early, idle_record(1625ms, true), idle_record(2125ms, false)}, e);
  EXPECT_TRUE(kept.passed) << ::testing::PrintToString(kept.findings);
}

}  // namespace judge_h3_test
}  // namespace loiter::suites
