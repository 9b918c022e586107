// judge() on readers that stalled the server's send path: cut by the send deadline (timed
// where the cut came during the pause), short pauses not cut, and responses large enough to
// stall the send path at all.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_cut_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

constexpr std::size_t kStall = 8'000'000;

// A reader of kind `kind` that paused at 0.1 s and ended as `ending` at `at`; `whole`: its
// response arrived whole.
ConnectionRecord reader(std::string_view kind, Ending ending, Duration at, bool whole = false,
                        bool while_paused = true) {
  ConnectionRecord r;
  r.kind = kind;
  r.sends.push_back({.at = 1ms, .bytes = 60});
  clients::Response response;
  response.status = 200;
  response.fields.add("Content-Length", std::to_string(kStall));
  response.body_bytes = whole ? kStall : 65'536;
  if (whole) response.complete = at;
  r.responses.push_back(std::move(response));
  r.pause = clients::ReadPause{
      .from = 100ms, .until = at, .unsent = kStall - 65'536, .ended_while_paused = while_paused};
  r.ending = ending;
  r.ended_at = at;
  return r;
}

Expectations expect_cut(bool from_pause = true) {
  Expectations e{.connections = 2, .patience = 6s, .fds_after = 0, .recovery = 5s};
  e.cut = CutExpectation{.kind = "reader-pause",
                         .deadline = 2s,
                         .slack = 250ms,
                         .from_pause = from_pause,
                         .pause = 4s};
  e.kind_completions.push_back(
      {.kind = "reader-short-pause", .responses = 1, .status = 200, .outlives = 1s});
  e.stall_bytes = kStall;
  return e;
}

Observation observe(std::vector<ConnectionRecord> records) {
  return {
      .scenario = "reader-pause",
      .connections = std::move(records),
      .fds = {.baseline = 5, .baseline_settled = true, .peak = 7, .after = 5, .recovered = true}};
}

// A reset 2 s after the pause began, and a short pause read whole: what must hold.
TEST(JudgeCut, PassesAResetAtTheSendDeadlineAndAShortPauseReadWhole) {
  const auto verdict = judge(observe({reader("reader-pause", Ending::reset, 2100ms),
                                      reader("reader-short-pause", Ending::client_close, 1800ms,
                                             /*whole=*/true, /*while_paused=*/false)}),
                             expect_cut());
  EXPECT_THAT(verdict.findings, IsEmpty());
}

// A reader read whole after its long pause was never cut: the finding says so.
TEST(JudgeCut, AReaderReadWholeAfterALongPauseWasNeverCut) {
  const auto verdict =
      judge(observe({reader("reader-pause", Ending::client_close, 4200ms, true, false),
                     reader("reader-short-pause", Ending::client_close, 1800ms, true, false)}),
            expect_cut());
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.findings, Contains(AllOf(counted(codes::kNeverCut, 1, 1), figure(4.0, 2.0))));
}

// A reset seen during the pause is timed from the pause (between writes) or the request.
TEST(JudgeCut, TimesACutSeenDuringThePauseFromItsOrigin) {
  const auto late =
      judge(observe({reader("reader-pause", Ending::reset, 3s),
                     reader("reader-short-pause", Ending::client_close, 1800ms, true, false)}),
            expect_cut());
  EXPECT_THAT(late.findings, Contains(AllOf(has_code(codes::kClosedLate), figure(2.9, 2.25))));
  // Bytes that still arrived 300 ms into the pause: the server's last progress may have
  // been then (a cut 2.3 s after the pause is in time), or at the pause (1.9 s is too).
  auto retransmitted = reader("reader-pause", Ending::reset, 2400ms);
  retransmitted.pause->filled = 400ms;
  const auto in_time =
      judge(observe({retransmitted,
                     reader("reader-short-pause", Ending::client_close, 1800ms, true, false)}),
            expect_cut());
  EXPECT_THAT(in_time.findings, IsEmpty());
  retransmitted.ended_at = 2000ms;
  const auto early_edge =
      judge(observe({retransmitted,
                     reader("reader-short-pause", Ending::client_close, 1800ms, true, false)}),
            expect_cut());
  EXPECT_THAT(early_edge.findings, IsEmpty());
  const auto early =
      judge(observe({reader("reader-pause", Ending::reset, 1200ms),
                     reader("reader-short-pause", Ending::client_close, 1800ms, true, false)}),
            expect_cut(/*from_pause=*/false));
  EXPECT_THAT(early.findings, Contains(AllOf(has_code(codes::kClosedEarly), figure(1.199, 1.75))));
}

// A FIN seen only when the reader read again is a cut, not timed; a short pause cut is not.
TEST(JudgeCut, AFinSeenOnResumingIsACutAndAShortPauseMustNotBeCut) {
  const auto verdict = judge(observe({reader("reader-pause", Ending::close, 4100ms, false, false),
                                      reader("reader-short-pause", Ending::reset, 2100ms)}),
                             expect_cut());
  EXPECT_THAT(verdict.findings, Not(Contains(has_code(codes::kNeverCut))));
  EXPECT_THAT(verdict.findings, Not(Contains(has_code(codes::kClosedLate))));
  EXPECT_THAT(verdict.findings,
              Contains(AllOf(
                  counted(codes::kCutOff, 1, 1),
                  ::testing::Field("subject", &reports::Finding::subject, "reader-short-pause"))));
}

// A response smaller than the kernel's buffers never stalled the send path.
TEST(JudgeCut, AResponseThatFitsInTheKernelsBuffersProvesNothing) {
  auto small = reader("reader-short-pause", Ending::client_close, 1800ms, true, false);
  small.responses.front().fields = {};
  small.responses.front().fields.add("Content-Length", "262144");
  const auto verdict =
      judge(observe({reader("reader-pause", Ending::reset, 2100ms), small}), expect_cut());
  EXPECT_THAT(verdict.findings,
              Contains(AllOf(has_code(codes::kFitsInBuffers), figure(262'144, kStall))));
}

}  // namespace judge_cut_test
}  // namespace loiter::suites
