// judge() over TLS: a header deadline measured from the handshake's completion
// (Since::handshake), a connection that never completed it, and the alert ending.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_tls_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

// A 1 s deadline ±250 ms from `since`; a close or an alert allowed.
Expectations expect_from(Since since, std::size_t count, std::string progress = {}) {
  return {.connections = count,
          .patience = 2s,
          .closure = ClosureExpectation{.since = since,
                                        .deadline = 1s,
                                        .slack = 250ms,
                                        .endings = {ends::closed, ends::alert},
                                        .progress = std::move(progress),
                                        .name = "header"},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = 5s};
}

// Ended as `ending` at `at`; with `handshake`, its TLS handshake completed then.
ConnectionRecord tls_ended(Ending ending, Duration at, std::optional<Duration> handshake) {
  ConnectionRecord record;
  record.kind = "tls-handshake-silent";
  record.ending = ending;
  record.ended_at = at;
  record.tls = clients::TlsRecord{.handshake_done = handshake, .handshake_sent = 300};
  return record;
}

Observation observe(std::vector<ConnectionRecord> records) {
  return {.scenario = "tls-handshake-silent",
          .connections = std::move(records),
          .fds = {.baseline = 5,
                  .baseline_settled = true,
                  .peak = 8,
                  .after = 5,
                  .recovered = true,
                  .recovered_after = 10ms},
          .timeline = {},
          .server_exit = std::nullopt};
}

// The origin is the handshake's completion; a record without one has none.
TEST(JudgeTls, TheHandshakeOriginIsWhenTheHandshakeCompleted) {
  EXPECT_THAT(deadline_origin(tls_ended(Ending::close, 1s, 300ms), Since::handshake),
              Optional(Duration(300ms)));
  EXPECT_EQ(deadline_origin(tls_ended(Ending::close, 1s, std::nullopt), Since::handshake),
            std::nullopt);
  EXPECT_EQ(deadline_origin(ConnectionRecord{}, Since::handshake), std::nullopt);
}

// Measured from the handshake: 1.3 s after connect is in time for a handshake at 0.3 s, 0.6 s
// is early for one at 0.1 s, and a connection whose handshake never completed cannot be
// measured from it (as a keepalive-partial without its second head).
TEST(JudgeTls, MeasuresTheHeaderDeadlineFromTheHandshakeCompletion) {
  const auto verdict = judge(
      observe({tls_ended(Ending::close, 1300ms, 300ms), tls_ended(Ending::alert, 600ms, 100ms),
               tls_ended(Ending::close, 600ms, std::nullopt)}),
      expect_from(Since::handshake, 3));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kEndedBeforeOrigin, 1, 3),
                                Field(&Finding::since, reports::Since::handshake)),
                          AllOf(counted(codes::kClosedEarly, 1, 3), figure(0.5, 0.75),
                                Field(&Finding::since, reports::Since::handshake),
                                Field(&Finding::deadline_name, "header"))));
}

// An alert is the server's ending: judged in the window like a close, late when late, and
// still-open names the handshake origin.
TEST(JudgeTls, JudgesAnAlertLikeACloseAndNamesTheHandshakeOrigin) {
  EXPECT_THAT(
      judge(observe({tls_ended(Ending::alert, 1200ms, 200ms)}), expect_from(Since::handshake, 1))
          .findings,
      IsEmpty());
  const auto verdict =
      judge(observe({tls_ended(Ending::alert, 1900ms, 200ms), tls_ended(Ending::open, 2s, 200ms)}),
            expect_from(Since::handshake, 2));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kStillOpen, 1, 2),
                                Field(&Finding::since, reports::Since::handshake)),
                          AllOf(counted(codes::kClosedLate, 1, 2), figure(1.7, 1.25))));
}

// A deadline from connect runs from the server's accept, before its handshake flight: late
// only past the deadline and its slack from the handshake's completion (1.5 s after connect,
// 1.2 s after a handshake at 0.3 s, is in time; after one at 10 ms, or with none, late), early
// before the deadline less its slack from connect (0.7 s).
TEST(JudgeTls, ADeadlineFromConnectIsLateOnlyPastItsSlackFromTheHandshake) {
  const auto verdict = judge(observe({tls_ended(Ending::close, 1500ms, 300ms),
                                      tls_ended(Ending::close, 1500ms, 10ms),
                                      tls_ended(Ending::close, 1500ms, std::nullopt),
                                      tls_ended(Ending::close, 700ms, 300ms)}),
                             expect_from(Since::connect, 4));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kClosedEarly, 1, 4), figure(0.7, 0.75),
                                Field(&Finding::since, reports::Since::connect)),
                          AllOf(counted(codes::kClosedLate, 2, 4), figure(1.5, 1.25),
                                Field(&Finding::since, reports::Since::connect))));
}

// A hello trickled past a deadline from connect that never fired: the bytes are the cause.
TEST(JudgeTls, AHelloTrickledPastTheDeadlineIsOutlivedByProgress) {
  ConnectionRecord record;
  record.kind = "tls-hello-trickle";
  for (auto at = 0ms; at < 2s; at += 200ms) record.sends.push_back({.at = at, .bytes = 1});
  record.tls = clients::TlsRecord{.handshake_sent = record.sends.size()};
  record.ending = Ending::open;
  record.ended_at = 2s;
  const auto verdict = judge(observe({record}), expect_from(Since::connect, 1, "hello byte"));
  EXPECT_THAT(verdict.findings,
              ::testing::Contains(AllOf(counted(codes::kOutlivedByProgress, 1, 1),
                                        Field(&Finding::progress, "hello byte"),
                                        Field(&Finding::since, reports::Since::connect))));
}

}  // namespace judge_tls_test
}  // namespace loiter::suites
