// judge() over HTTP/2: a stream's end (a RST_STREAM, an answer) judged before the
// connection's, and findings that name the server's frames (its GOAWAY's code, or none).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_h2_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

constexpr std::uint32_t kProtocolError = 1;
constexpr std::uint32_t kCancel = 8;

// A 1 s deadline ±250 ms from `since`, over the stream or the connection.
Expectations expect_closure(Since since, std::vector<clients::EndingLabel> endings, bool stream,
                            std::string progress = {}) {
  return {.connections = 1,
          .patience = 3s,
          .closure = ClosureExpectation{.since = since,
                                        .deadline = 1s,
                                        .slack = 250ms,
                                        .endings = std::move(endings),
                                        .progress = std::move(progress),
                                        .name = "body",
                                        .stream = stream},
          .fds_after = 0,
          .recovery = 5s};
}

// One h2 connection whose long stream must outlive `outlives` with one response, within
// 10 s of patience: what the tests of cut streams judge by.
Expectations expect_long_stream(Duration outlives) {
  return {.connections = 1,
          .patience = 10s,
          .completion = CompletionExpectation{.responses = 1, .outlives = outlives},
          .recovery = 5s};
}

// An h2 connection whose request went at 10 ms, ending as `ending` at `at`.
ConnectionRecord h2_record(Ending ending, Duration at) {
  ConnectionRecord record;
  record.kind = "h2-data-trickle";
  record.sends.push_back({.at = 10ms, .bytes = 100});
  record.requests = 0;
  record.h2 = clients::H2Record{.server_settings = 1ms, .settings_ack = 2ms};
  record.ending = ending;
  record.ended_at = at;
  return record;
}

void reset_stream(ConnectionRecord& record, Duration at, std::uint32_t code) {
  record.h2->resets.push_back({.at = at, .stream = 1, .code = code});
  record.h2->reset_count = 1;
}

Observation observe(std::vector<ConnectionRecord> records) {
  return {
      .scenario = "h2-data-trickle",
      .connections = std::move(records),
      .fds = {.baseline = 5, .baseline_settled = true, .peak = 6, .after = 5, .recovered = true}};
}

// A RST_STREAM at the deadline ends the stream: the connection the server kept open after
// it is neither still open nor late.
TEST(JudgeH2, AResetStreamAtTheDeadlineEndsTheStream) {
  auto record = h2_record(Ending::open, 3s);
  reset_stream(record, 1100ms, kCancel);
  const auto verdict =
      judge(observe({record}),
            expect_closure(Since::first_send, {ends::stream_reset, ends::closed}, true));
  EXPECT_THAT(verdict.findings, IsEmpty());
}

// A whole answer ends the stream too, labelled by its status; a RST_STREAM far too soon is
// early, measured from the request.
TEST(JudgeH2, AWholeAnswerEndsTheStreamAndAnEarlyResetIsEarly) {
  auto answered = h2_record(Ending::open, 3s);
  answered.responses.push_back({.status = 408, .started = 1s, .complete = 1s});
  auto early = h2_record(Ending::open, 3s);
  reset_stream(early, 210ms, kCancel);
  auto expected = expect_closure(Since::first_send, {ends::stream_reset}, true);
  expected.connections = 2;
  const auto verdict = judge(observe({answered, early}), expected);
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kClosedEarly, 1, 2), figure(0.2, 0.75)),
                          AllOf(counted(codes::kWrongEnding, 1, 2), Field(&Finding::ending, "408"),
                                Field(&Finding::expected_endings, ElementsAre("rst-stream")))));
}

// Judged over the connection (the default), the same reset stream does not end it: the
// connection is still open.
TEST(JudgeH2, OverTheConnectionAResetStreamDoesNotEndIt) {
  auto record = h2_record(Ending::open, 3s);
  reset_stream(record, 1100ms, kCancel);
  const auto verdict =
      judge(observe({record}), expect_closure(Since::first_send, {ends::stream_reset}, false));
  EXPECT_THAT(verdict.findings, ElementsAre(counted(codes::kStillOpen, 1, 1)));
}

// A close where a GOAWAY was promised: the finding says there was none.
TEST(JudgeH2, ACloseWithoutGoawayIsNamedSo) {
  const auto verdict = judge(observe({h2_record(Ending::close, 1s)}),
                             expect_closure(Since::connect, {ends::goaway(Ending::close)}, false));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kWrongEnding, 1, 1),
                                Field(&Finding::ending, "close (without GOAWAY)"))));
}

// The server ends a connection with its GOAWAY: one at the deadline, the close a second
// later (Go waits for the client to close first), is on time; without the close that
// follows, the connection is still open.
TEST(JudgeH2, AConnectionIsTimedFromTheGoawayItsServerClosed) {
  auto closed = h2_record(Ending::close, 2s);
  closed.h2->goaway = clients::H2Goaway{.at = 1s, .last_stream = 0, .code = 0};
  EXPECT_THAT(
      judge(observe({closed}), expect_closure(Since::connect, {ends::goaway(Ending::close)}, false))
          .findings,
      IsEmpty());
  auto open = h2_record(Ending::open, 3s);
  open.h2->goaway = clients::H2Goaway{.at = 1s, .last_stream = 0, .code = 0};
  EXPECT_THAT(
      judge(observe({open}), expect_closure(Since::connect, {ends::goaway(Ending::close)}, false))
          .findings,
      ElementsAre(counted(codes::kStillOpen, 1, 1)));
}

// A GOAWAY's code and last stream are named, and a RST_STREAM's code.
TEST(JudgeH2, AnUnexpectedEndingNamesTheGoawayAndResetCodes) {
  auto record = h2_record(Ending::reset, 1s);
  record.h2->goaway = clients::H2Goaway{.at = 990ms, .last_stream = 0, .code = kProtocolError};
  reset_stream(record, 980ms, kCancel);
  const auto verdict = judge(observe({record}),
                             expect_closure(Since::connect, {ends::goaway(Ending::close)}, false));
  ASSERT_THAT(verdict.findings, ElementsAre(counted(codes::kWrongEnding, 1, 1)));
  EXPECT_THAT(verdict.findings[0].ending, AllOf(HasSubstr("GOAWAY PROTOCOL_ERROR, last stream 0"),
                                                HasSubstr("RST_STREAM CANCEL")));
}

// DATA bytes that kept coming past the deadline, the stream never ended: outlived by them.
TEST(JudgeH2, DataTrickledPastTheDeadlineIsOutlivedByProgress) {
  auto record = h2_record(Ending::open, 3s);
  for (auto at = 210ms; at < 3s; at += 200ms) record.sends.push_back({.at = at, .bytes = 10});
  const auto verdict =
      judge(observe({record}),
            expect_closure(Since::first_send, {ends::stream_reset}, true, "data byte"));
  EXPECT_THAT(verdict.findings, Contains(AllOf(counted(codes::kOutlivedByProgress, 1, 1),
                                               Field(&Finding::progress, "data byte"))));
}

// A stream the server never let finish (window-trickle's twin of a cut): the cut names the
// RST_STREAM's code.
TEST(JudgeH2, ACutStreamNamesItsResetCode) {
  auto record = h2_record(Ending::close, 2s);
  reset_stream(record, 1500ms, kCancel);
  record.responses.push_back({.status = 200, .started = 100ms, .body_bytes = 4096});
  const auto expected = expect_long_stream(3s);
  const auto verdict = judge(observe({record}), expected);
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kCutOff, 1, 1),
                                Field(&Finding::ending, HasSubstr("RST_STREAM CANCEL")))));
}

// A long stream beside short ones (stream, long-response, slow-reader over h2): the short
// ones answered whole do not hide the long one's RST_STREAM; the cut is timed at the reset,
// not at the connection's later end, and counts every stream asked for.
TEST(JudgeH2, BesideWholeStreamsAResetStreamIsACutAtItsReset) {
  auto record = h2_record(Ending::close, 4s);
  record.requests = 3;
  reset_stream(record, 2s, 2);  // INTERNAL_ERROR
  record.responses.push_back({.status = 200, .started = 1s, .complete = 1s, .body_bytes = 2});
  record.responses.push_back({.status = 200, .started = 2s, .complete = 2s, .body_bytes = 2});
  record.responses.push_back({.status = 200, .started = 10ms, .body_bytes = 40});
  const auto expected = expect_long_stream(2s);
  const auto verdict = judge(observe({record}), expected);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kCutOff, 1, 1), figure(2.0, 2.0),
                                Field(&Finding::responses, std::optional<std::size_t>(3)),
                                Field(&Finding::ending, HasSubstr("RST_STREAM INTERNAL_ERROR")))));
}

// Every stream asked for answered whole, and none reset: not cut; one short stream left
// unanswered is a cut, though the long one is whole.
TEST(JudgeH2, BesideOthersEveryStreamAskedForMustBeAnswered) {
  auto record = h2_record(Ending::close, 6s);
  record.requests = 2;
  record.responses.push_back({.status = 200, .started = 1s, .complete = 1s, .body_bytes = 2});
  record.responses.push_back({.status = 200, .started = 10ms, .complete = 4s, .body_bytes = 40});
  const auto expected = expect_long_stream(2s);
  EXPECT_TRUE(judge(observe({record}), expected).passed)
      << judge(observe({record}), expected).findings.size();
  record.requests = 3;
  EXPECT_THAT(judge(observe({record}), expected).findings, Contains(counted(codes::kCutOff, 1, 1)));
}

}  // namespace judge_h2_test
}  // namespace loiter::suites
