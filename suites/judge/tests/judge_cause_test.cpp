// judge() names causes, not only symptoms: a connection that outlived its deadline while the
// client's progress kept arriving says so, and an answer at the right time is judged as an
// answer, not as a deadline.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_cause_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

// A 1 s deadline from connect, ±250 ms; a close promised (a 408 before it is as good).
Expectations expect_lines(std::string progress = "header line") {
  return {.connections = 2,
          .patience = 2s,
          .closure =
              ClosureExpectation{.since = Since::connect,
                                 .deadline = 1s,
                                 .slack = 250ms,
                                 .endings = {ends::closed, ends::with_status(408, Ending::close)},
                                 .progress = std::move(progress)},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = 5s};
}

// The request line at once, then a line every `every` until `end`; ended then as `ending`.
ConnectionRecord lines(Ending ending, Duration end, Duration every) {
  ConnectionRecord record;
  record.kind = "header-lines";
  record.sends.push_back({.at = 1ms, .bytes = 38});
  for (auto at = every; at < end; at += every) record.sends.push_back({.at = at, .bytes = 15});
  record.ending = ending;
  record.ended_at = end;
  return record;
}

Observation observe(std::vector<ConnectionRecord> records) {
  return {.scenario = "header-lines",
          .connections = std::move(records),
          .fds = {.baseline = 5,
                  .baseline_settled = true,
                  .peak = 7,
                  .after = 5,
                  .recovered = true,
                  .recovered_after = 10ms},
          .timeline = {},
          .server_exit = std::nullopt};
}

ConnectionRecord answered(unsigned status, Duration at) {
  auto record = lines(Ending::close, at, 300ms);
  clients::Response response;
  response.status = status;
  response.complete = at;
  record.responses.push_back(response);
  return record;
}

// Lines kept coming past the deadline and the connection stayed open: the finding says how
// many lines had arrived by the deadline, and when the last one came.
TEST(JudgeCause, AConnectionOutlivingItsDeadlineWhileLinesKeptComingNamesTheLines) {
  const auto verdict = judge(
      observe({lines(Ending::open, 2s, 300ms), lines(Ending::close, 1s, 300ms)}), expect_lines());
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.findings, Contains(has_code(codes::kStillOpen)));
  EXPECT_THAT(verdict.findings,
              Contains(with_class(FindingClass::deadline,
                                  AllOf(counted(codes::kOutlivedByProgress, 1, 2), figure(1.8, 1.0),
                                        Field(&Finding::since, reports::Since::connect),
                                        Field(&Finding::progress, "header line"),
                                        Field(&Finding::progress_by_deadline, Optional(3u))))));
}

// A late close counts too; one in the window, or without progress after the deadline, not.
TEST(JudgeCause, ALateCloseAfterProgressIsNamedAndAnInTimeCloseIsNot) {
  auto quiet = lines(Ending::close, 1500ms, 2s);  // only the request line: no progress
  const auto verdict =
      judge(observe({lines(Ending::close, 1500ms, 300ms), quiet}), expect_lines("header byte"));
  EXPECT_THAT(verdict.findings, Contains(counted(codes::kClosedLate, 2, 2)));
  EXPECT_THAT(verdict.findings, Contains(AllOf(counted(codes::kOutlivedByProgress, 1, 2),
                                               Field(&Finding::progress, "header byte"))));
  const auto in_time =
      judge(observe({lines(Ending::close, 1100ms, 300ms), lines(Ending::close, 1s, 300ms)}),
            expect_lines());
  EXPECT_THAT(in_time.findings, IsEmpty());
}

// Without a progress label the judge names no cause.
TEST(JudgeCause, SendsAreNotProgressUnlessTheExpectationSaysSo) {
  const auto verdict = judge(
      observe({lines(Ending::open, 2s, 300ms), lines(Ending::open, 2s, 300ms)}), expect_lines(""));
  EXPECT_THAT(verdict.findings, Not(Contains(has_code(codes::kOutlivedByProgress))));
}

// RFC 9110 recommends a 408 before closing: under a close promise it is as good as the close.
TEST(JudgeCause, A408BeforeThePromisedCloseIsAccepted) {
  const auto verdict =
      judge(observe({answered(408, 1s), lines(Ending::close, 1s, 300ms)}), expect_lines());
  EXPECT_TRUE(verdict.passed);
  EXPECT_THAT(verdict.findings, IsEmpty());
}

// Another status at the right time (a 400 when the deadline falls mid-line) is an answer
// finding only: the deadline held.
TEST(JudgeCause, A400AtTheRightTimeIsAnAnswerFindingNotADeadlineOne) {
  const auto verdict =
      judge(observe({answered(400, 1s), lines(Ending::close, 1s, 300ms)}), expect_lines());
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(
      verdict.findings,
      ElementsAre(with_class(FindingClass::answer, AllOf(counted(codes::kWrongEnding, 1, 2),
                                                         Field(&Finding::ending, "400+close")))));
}

}  // namespace judge_cause_test
}  // namespace loiter::suites
