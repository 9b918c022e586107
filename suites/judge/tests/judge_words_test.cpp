// judge() gives a finding the facts its sentence needs to say what the server did: the 408
// it sent to connections it then kept open, early closes at the deadline counted from connect,
// slow readers cut while still reading, FDs left by connections the server's FIN ended, and
// late closes the accept queue explains, not progress.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_words_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;
using ::testing::DoubleNear;

// A deadline of 1 s ± 250 ms from `since`; a close promised, or a 408 and then the close.
Expectations expect(Since since, std::size_t connections, std::string progress = {}) {
  return {.connections = connections,
          .patience = 2s,
          .closure =
              ClosureExpectation{.since = since,
                                 .deadline = 1s,
                                 .slack = 250ms,
                                 .endings = {ends::closed, ends::with_status(408, Ending::close)},
                                 .progress = std::move(progress),
                                 .name = since == Since::last_response ? "idle" : ""},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = 5s};
}

// A stalled body: its head sent at 10 ms, a 408 whose head arrived at `answered`, and no
// close after it.
ConnectionRecord answered_and_kept(Duration answered) {
  auto record = ended(Ending::open, 2s);
  record.sends = {{.at = 10ms, .bytes = 80}};
  clients::Response response;
  response.status = 408;
  response.started = answered;
  response.complete = answered;
  record.responses = {response};
  return record;
}

// Still open after a 408 at the deadline: the finding names the 408 and when it came, from
// the request head the deadline runs from.
TEST(JudgeWords, StillOpenAfterA408NamesTheStatusAndWhenItCame) {
  const auto verdict = judge(observe({answered_and_kept(1010ms), answered_and_kept(1030ms)}),
                             expect(Since::first_send, 2));
  EXPECT_THAT(
      verdict.findings,
      Contains(AllOf(counted(codes::kStillOpen, 2, 2), Field(&Finding::status, Optional(408u)),
                     Field(&Finding::answered_at, Optional(DoubleNear(1.02, 1e-9))))));
  // One of them without the 408: no status is named for them all.
  auto silent = answered_and_kept(1010ms);
  silent.responses.clear();
  const auto mixed =
      judge(observe({answered_and_kept(1010ms), silent}), expect(Since::first_send, 2));
  EXPECT_THAT(mixed.findings, Contains(AllOf(counted(codes::kStillOpen, 2, 2),
                                             Field(&Finding::status, std::nullopt),
                                             Field(&Finding::answered_at, std::nullopt))));
}

// A keep-alive connection closed at the idle deadline counted from connect: early from its
// last response, and the finding says when from connect.
TEST(JudgeWords, AnEarlyCloseAtTheDeadlineFromConnectSaysWhenFromConnect) {
  auto from_connect = ended(Ending::close, 1010ms);  // 0.61 s after its response at 0.4 s
  from_connect.requests = 1;
  from_connect.responses = {whole(200, 400ms)};
  const auto verdict =
      judge(observe({from_connect, from_connect}), expect(Since::last_response, 2));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kClosedEarly, 2, 2),
                                Field(&Finding::after_connect, Optional(DoubleNear(1.01, 1e-9))))));
  // Closed early from connect too: no deadline from connect explains it.
  auto earlier = ended(Ending::close, 600ms);
  earlier.requests = 1;
  earlier.responses = {whole(200, 300ms)};
  const auto other = judge(observe({from_connect, earlier}), expect(Since::last_response, 2));
  EXPECT_THAT(other.findings, ElementsAre(AllOf(counted(codes::kClosedEarly, 2, 2),
                                                Field(&Finding::after_connect, std::nullopt))));
}

// A slow reader reset while its bytes kept coming: the cut says how long before it the last
// bytes came.
TEST(JudgeWords, ASlowReaderCutWhileReadingSaysWhenItsLastBytesCame) {
  auto cut = ended(Ending::reset, 5437ms);
  cut.requests = 1;
  cut.responses = {clients::Response{.status = 200}};
  for (int i = 1; i <= 26; ++i) {
    cut.progress.push_back({.at = i * 200ms, .bytes = static_cast<std::size_t>(i) * 4096});
  }
  cut.progress.push_back({.at = 5437ms, .bytes = 26 * 4096});  // the read that saw the reset
  const auto verdict = judge(observe({cut, cut}), expect_completion(1));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kCutOff, 2, 2),
                                Field(&Finding::read_gap, Optional(DoubleNear(0.237, 1e-9))))));
  // A connection that kept no reads (a stream, a long response) names none.
  auto stream = cut;
  stream.progress.clear();
  EXPECT_THAT(
      judge(observe({stream, stream}), expect_completion(1)).findings,
      ElementsAre(AllOf(counted(codes::kCutOff, 2, 2), Field(&Finding::read_gap, std::nullopt))));
}

// FDs left for every connection the server's FIN ended: the finding counts those connections
// (and shows the TCP states at the end); connections the client closed itself are not counted.
TEST(JudgeWords, FdsLeftByConnectionsTheServersFinEndedAreCounted) {
  auto observation = observe({ended(Ending::close, 1s), ended(Ending::close, 1s)});
  observation.fds = {.baseline = 5, .baseline_settled = true, .peak = 7, .after = 7};
  fixtures::TcpCounts tcp;
  tcp.server.by_state[static_cast<std::size_t>(TcpState::time_wait)] = 2;
  observation.timeline = {{.at = Clock::now(), .sample = {.processes = 1, .fds = 7, .tcp = tcp}}};
  const auto verdict = judge(observation, expect(Since::connect, 2));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kFdsNotRecovered, 2, 2),
                                Field(&Finding::explanation, HasSubstr("TIME_WAIT 2")))));
  observation.connections = {ended(Ending::client_close, 1s), ended(Ending::client_close, 1s)};
  const auto client_closed = judge(observation, expect(Since::connect, 2));
  EXPECT_THAT(client_closed.findings, Contains(AllOf(has_code(codes::kFdsNotRecovered),
                                                     Field(&Finding::count, std::nullopt))));
}

// Header lines every 300 ms, the connection closed late at 1.6 s, 100 ms after a line: a
// deadline re-armed by that line could not have fired then. With the server's accept queue
// holding connections after it connected, it was accepted late: no progress is blamed, and
// the late close stands. Without that queue, the lines are named as ever.
TEST(JudgeWords, ALateCloseFromALateAcceptIsNotBlamedOnProgress) {
  ConnectionRecord late;
  late.kind = "header-lines";
  late.connect_start = Clock::now();
  for (auto at = 0ms; at < 1600ms; at += 300ms) late.sends.push_back({.at = at, .bytes = 15});
  late.ending = Ending::close;
  late.ended_at = 1600ms;
  auto observation = observe({late, late});
  fixtures::TcpCounts queued;
  queued.accept_queue = 40;
  observation.timeline = {
      {.at = late.connected() + 300ms, .sample = {.processes = 1, .tcp = queued}}};
  const auto verdict = judge(observation, expect(Since::connect, 2, "header line"));
  EXPECT_THAT(verdict.findings, Contains(counted(codes::kClosedLate, 2, 2)));
  EXPECT_THAT(verdict.findings, Not(Contains(has_code(codes::kOutlivedByProgress))));
  observation.timeline.clear();
  EXPECT_THAT(judge(observation, expect(Since::connect, 2, "header line")).findings,
              Contains(counted(codes::kOutlivedByProgress, 2, 2)));
}

// 1,000 connections at a 1 s deadline from connect, the server's accept queue sampled every
// 100 ms: one closed late at 1.6 s with the queue still 300 at 0.6 s (the last sample before
// its end less the deadline) is counted as waiting there; one closed late at 1.9 s with the
// queue empty since 0.7 s is not. A header-lines connection still open when the client
// gave up, with the queue still held a deadline before, is not blamed on its lines.
TEST(JudgeWords, LateClosesNameTheAcceptQueueThatStillHeldConnectionsADeadlineBefore) {
  const auto start = Clock::now();
  const auto closed_at = [&](Duration at) {
    auto r = ended(Ending::close, at);
    r.connect_start = start;
    return r;
  };
  auto observation = observe({closed_at(1600ms), closed_at(1900ms), closed_at(1s)});
  for (auto at = 100ms; at <= 2s; at += 100ms) {
    fixtures::TcpCounts tcp;
    tcp.accept_queue = at <= 300ms ? 500 : at <= 600ms ? 300 : 0;
    tcp.backlog = 4096;
    observation.timeline.push_back({.at = start + at, .sample = {.processes = 1, .tcp = tcp}});
  }
  const auto verdict = judge(observation, expect(Since::connect, 3));
  EXPECT_THAT(verdict.findings, Contains(AllOf(counted(codes::kClosedLate, 2, 3),
                                               Field(&Finding::accept_waited, Optional(1u)),
                                               Field(&Finding::accept_queue, Optional(300u)),
                                               Field(&Finding::backlog, Optional(4096u)))));
  observation.timeline.clear();
  EXPECT_THAT(judge(observation, expect(Since::connect, 3)).findings,
              Contains(AllOf(counted(codes::kClosedLate, 2, 3),
                             Field(&Finding::accept_waited, std::nullopt))));

  ConnectionRecord open;
  open.kind = "header-lines";
  open.connect_start = start;
  for (auto at = 0ms; at < 2s; at += 300ms) open.sends.push_back({.at = at, .bytes = 15});
  open.ending = Ending::open;
  open.ended_at = 2s;
  observation.connections = {open};
  fixtures::TcpCounts queued;
  queued.accept_queue = 40;
  observation.timeline = {{.at = start + 900ms, .sample = {.processes = 1, .tcp = queued}}};
  const auto lines = judge(observation, expect(Since::connect, 1, "header line"));
  EXPECT_THAT(lines.findings, Contains(has_code(codes::kStillOpen)));
  EXPECT_THAT(lines.findings, Not(Contains(has_code(codes::kOutlivedByProgress))));
  observation.timeline.clear();
  EXPECT_THAT(judge(observation, expect(Since::connect, 1, "header line")).findings,
              Contains(counted(codes::kOutlivedByProgress, 1, 1)));
}

}  // namespace judge_words_test
}  // namespace loiter::suites
