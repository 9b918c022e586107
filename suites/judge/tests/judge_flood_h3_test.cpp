// judge() on canned HTTP/3 flood observations, a rule a test: a flood that must end is ended
// by the server's close, a stateless reset or its refused credit within the frames (a
// QPACK bomb also by every stream refused), a CONNECTION_CLOSE carries a code the kind's RFC
// names, a bounded kind is judged on the server's RSS and never on its ending, and the
// control client's HTTP/3 answers and p99 count as HTTP/2's do. Each test shows the rule
// kept (no finding) and broken (its finding).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_flood_h3_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

constexpr std::string_view kControl = "h3-control";
constexpr std::size_t kFrames = 1000;  // the target's [h3.flood] frames
constexpr QuicCode kExcessiveLoad{.code = 0x107, .application = true};
constexpr QuicCode kRequestRejected{.code = 0x10b, .application = true};
constexpr QuicCode kNoError{.code = 0x100, .application = true};

// A flood connection of `kind` that sent `sent` frames and ended `ending`.
ConnectionRecord flood(std::string_view kind, std::size_t sent, Ending ending) {
  ConnectionRecord r{.kind = kind, .ending = ending, .ended_at = 1s};
  r.h3.emplace();
  r.h3->frames_sent = sent;
  return r;
}

// The server's CONNECTION_CLOSE with `code`, read when `at_close` frames had gone out.
ConnectionRecord closed(std::string_view kind, std::size_t sent, std::size_t at_close,
                        QuicCode code = kExcessiveLoad) {
  auto r = flood(kind, sent, Ending::close);
  r.h3->close = clients::H3Close{.at = 1s, .code = code.code, .application = code.application};
  r.h3->frames_at_close = at_close;
  return r;
}

// `n` GETs answered `status`, each in 1 ms but the first (`slowest`).
ConnectionRecord control(std::size_t n, unsigned status = 200, Duration slowest = 1ms) {
  ConnectionRecord r{.kind = kControl, .requests = n, .ending = Ending::client_close};
  r.h3.emplace();
  for (std::size_t i = 0; i < n; ++i) {
    r.responses.push_back({.status = status, .complete = Duration(1s)});
    r.h3->latencies.push_back(i == 0 ? slowest : 1ms);
  }
  return r;
}

Observation observe(std::vector<ConnectionRecord> records, std::size_t rss_kib = 0) {
  return testing::flood_observation("h3-flood", std::move(records), rss_kib);
}

// What the catalogue expects of a kind (scenarios_flood_h3.cpp): must it end, do refused
// streams end it, and the codes its close may carry.
Expectations expect(std::string_view kind, bool must_end = true, std::vector<QuicCode> codes = {},
                    bool refusals_end = false, std::optional<std::uint64_t> rss = {}) {
  if (codes.empty()) codes = {kExcessiveLoad, kRequestRejected, kNoError};
  return {.connections = 2,
          .patience = 10s,
          .flood = FloodExpectation{.kind = std::string(kind),
                                    .control_kind = std::string(kControl),
                                    .frames = kFrames,
                                    .p99 = 200ms,
                                    .rss = rss,
                                    .must_end = must_end,
                                    .refusals_end = refusals_end,
                                    .close_codes = std::move(codes)}};
}

// The server's CONNECTION_CLOSE within the frames ends a rapid reset; counted at the close
// (frames_at_close), not from all the flood sent before it noticed.
TEST(JudgeFloodH3, ACloseWithinTheFramesEndsTheFlood) {
  const auto v =
      judge(observe({closed("h3-rapid-reset", 1900, 800), control(100)}), expect("h3-rapid-reset"));
  EXPECT_TRUE(v.passed);
  EXPECT_THAT(v.findings, IsEmpty());
  // At the bound exactly is within it.
  EXPECT_THAT(judge(observe({closed("h3-rapid-reset", 1900, kFrames), control(100)}),
                    expect("h3-rapid-reset"))
                  .findings,
              IsEmpty());
}

// A close read only after more frames than declared: flood-over-frames, the frames at the
// close against the bound, with the ending named.
TEST(JudgeFloodH3, ACloseAfterTooManyFramesIsOverTheFrames) {
  const auto v = judge(observe({closed("h3-rapid-reset", 2000, 1500), control(100)}),
                       expect("h3-rapid-reset"));
  ASSERT_THAT(v.findings, ElementsAre(AllOf(counted(codes::kFloodOverFrames, 1, 1),
                                            figure(1500, 1000), has_code("flood-over-frames"))));
  EXPECT_EQ(v.findings[0].ending, "close");
  EXPECT_EQ(v.findings[0].subject, "h3-rapid-reset");
  EXPECT_FALSE(v.passed);
}

// A flood the server never ended (it ran out of frames, then the client closed): named
// with the frames it sent. A connection the server forgot without a word (gone) did not end
// the flood either, nor did a close the record saw without a CONNECTION_CLOSE or reset.
TEST(JudgeFloodH3, AFloodTheServerNeverEndedIsNotEnded) {
  for (const auto ending : {Ending::client_close, Ending::gone, Ending::open, Ending::close}) {
    const auto v = judge(observe({flood("h3-connection-id", 2000, ending), control(100)}),
                         expect("h3-connection-id"));
    EXPECT_THAT(v.findings,
                ElementsAre(AllOf(counted(codes::kFloodNotEnded, 1, 1), figure(2000, 1000))))
        << clients::to_string(ending);
  }
}

// A stateless reset ends the flood as a close does (no code to judge).
TEST(JudgeFloodH3, AStatelessResetEndsTheFlood) {
  auto reset = flood("h3-qpack-blocked", 1900, Ending::reset);
  reset.h3->stateless_reset = true;
  reset.h3->frames_at_close = 300;
  EXPECT_THAT(judge(observe({reset, control(100)}), expect("h3-qpack-blocked")).findings,
              IsEmpty());
  reset.h3->frames_at_close = 1300;
  EXPECT_THAT(judge(observe({reset, control(100)}), expect("h3-qpack-blocked")).findings,
              ElementsAre(AllOf(has_code(codes::kFloodOverFrames), figure(1300, 1000))));
}

// The server that stops granting stream credit ends the flood too, counted from all the flood
// sent: within the frames it is an ending, past them one too late.
TEST(JudgeFloodH3, RefusedCreditEndsTheFloodWithinItsFrames) {
  auto stalled = flood("h3-rapid-reset", 600, Ending::client_close);
  stalled.h3->credit_stalled = true;
  EXPECT_THAT(judge(observe({stalled, control(100)}), expect("h3-rapid-reset")).findings,
              IsEmpty());
  stalled.h3->frames_sent = 1800;
  const auto v = judge(observe({stalled, control(100)}), expect("h3-rapid-reset"));
  ASSERT_THAT(v.findings,
              ElementsAre(AllOf(has_code(codes::kFloodOverFrames), figure(1800, 1000))));
  EXPECT_EQ(v.findings[0].ending, "credit-stalled");
}

// A QPACK bomb every stream of which the server refused (none answered) was ended bomb by
// bomb, however many frames went; one answered bomb, or another kind, is not so ended.
TEST(JudgeFloodH3, EveryBombRefusedEndsAQpackBomb) {
  auto bombs = flood("h3-qpack-bomb", 2000, Ending::client_close);
  bombs.h3->streams_opened = 2000;
  bombs.h3->streams_refused = 2000;
  const auto bomb = [](const ConnectionRecord& r, bool refusals_end) {
    return judge(observe({r, control(100)}), expect(r.kind, true, {}, refusals_end)).findings;
  };
  EXPECT_THAT(bomb(bombs, true), IsEmpty());
  EXPECT_THAT(bomb(bombs, false), ElementsAre(has_code(codes::kFloodNotEnded)));
  auto answered = bombs;
  answered.h3->streams_refused = 1999;
  answered.h3->streams_answered = 1;
  EXPECT_THAT(bomb(answered, true), ElementsAre(has_code(codes::kFloodNotEnded)));
  auto none = bombs;  // no stream opened: nothing refused
  none.h3->streams_opened = none.h3->streams_refused = 0;
  EXPECT_THAT(bomb(none, true), ElementsAre(has_code(codes::kFloodNotEnded)));
  // The last bomb still in flight when the flood stopped (neither refused nor answered) does
  // not undo the server's refusal of every one it saw.
  auto last_in_flight = bombs;
  last_in_flight.h3->streams_refused = 1999;
  EXPECT_THAT(bomb(last_in_flight, true), IsEmpty());
}

// A CONNECTION_CLOSE with a code the kind's RFC does not name is a finding of its own, one
// per code, naming it and the codes allowed, even where the close came in time; a
// transport code is not the application code of the same number.
TEST(JudgeFloodH3, ACloseWithAnotherCodeIsNamed) {
  const std::vector<QuicCode> cid_codes{{.code = 0x09}, {.code = 0x0a}};
  EXPECT_THAT(judge(observe({closed("h3-connection-id", 900, 500, {.code = 0x09}), control(100)}),
                    expect("h3-connection-id", true, cid_codes))
                  .findings,
              IsEmpty());
  auto three = expect("h3-connection-id", true, cid_codes);
  three.connections = 4;
  const auto v =
      judge(observe({closed("h3-connection-id", 900, 500, {.code = 0x01}),
                     closed("h3-connection-id", 900, 500, {.code = 0x01}),
                     closed("h3-connection-id", 900, 500, {.code = 0x0a, .application = true}),
                     control(100)}),
            three);
  ASSERT_THAT(v.findings, ElementsAre(counted(codes::kFloodCloseCode, 2, 3),
                                      counted(codes::kFloodCloseCode, 1, 3)));
  EXPECT_EQ(v.findings[0].error, "INTERNAL_ERROR (0x1)");
  EXPECT_EQ(v.findings[1].error, "error 0xa");  // no HTTP/3 code has that number
  EXPECT_THAT(v.findings[0].expected_endings,
              ElementsAre("CONNECTION_ID_LIMIT_ERROR (0x9)", "PROTOCOL_VIOLATION (0xa)"));
  EXPECT_EQ(v.findings[0].klass, FindingClass::answer);
  EXPECT_THAT(reports::text(v.findings[0]),
              HasSubstr("2/3 flood connections closed by the server with INTERNAL_ERROR (0x1), "
                        "not CONNECTION_ID_LIMIT_ERROR (0x9) or PROTOCOL_VIOLATION (0xa)"));
}

// A bounded kind (PING, PATH_CHALLENGE, ...) need not be ended: a flood run to its end is no
// finding; but its close must carry a code of its list, and the server's RSS stay bounded.
TEST(JudgeFloodH3, ABoundedKindIsJudgedOnItsMemoryNotItsEnding) {
  const std::vector<QuicCode> ooo_codes{{.code = 0x0d}, {.code = 0x03}};
  const auto bounded = [&](std::vector<ConnectionRecord> records, std::size_t rss_kib = 0) {
    return judge(observe(std::move(records), rss_kib),
                 expect("h3-out-of-order", false, ooo_codes, false, std::uint64_t{64} << 20))
        .findings;
  };
  EXPECT_THAT(bounded({flood("h3-out-of-order", 2000, Ending::client_close), control(100)}),
              IsEmpty());
  EXPECT_THAT(bounded({closed("h3-out-of-order", 2000, 1900, {.code = 0x0d}), control(100)}),
              IsEmpty());  // closed past the frames: no bound on its ending
  EXPECT_THAT(bounded({closed("h3-out-of-order", 2000, 100, {.code = 0x01}), control(100)}),
              ElementsAre(AllOf(counted(codes::kFloodCloseCode, 1, 1),
                                Field(&Finding::error, "INTERNAL_ERROR (0x1)"))));
  EXPECT_THAT(
      bounded({flood("h3-out-of-order", 2000, Ending::client_close), control(100)}, 80 * 1024),
      ElementsAre(AllOf(has_code(codes::kRssOverBound), figure(80, 64))));
}

// The control client's GETs over HTTP/3 are judged as HTTP/2's: each answered 200, and their
// p99 (record.h3->latencies) within the bound.
TEST(JudgeFloodH3, TheControlClientOverHttp3IsJudged) {
  auto unanswered = control(10, 503);
  unanswered.requests = 12;
  auto v =
      judge(observe({closed("h3-rapid-reset", 900, 400), unanswered}), expect("h3-rapid-reset"));
  ASSERT_THAT(v.findings, ElementsAre(counted(codes::kControlUnanswered, 12, 12)));
  EXPECT_THAT(v.findings[0].failures, ElementsAre(Pair("503", 10), Pair("unanswered", 2)));
  auto slow = control(100, 200, 900ms);
  slow.h3->latencies[1] = 700ms;
  v = judge(observe({closed("h3-rapid-reset", 900, 400), slow}), expect("h3-rapid-reset"));
  EXPECT_THAT(v.findings, ElementsAre(AllOf(has_code(codes::kP99OverBound), figure(700, 200))));
}

}  // namespace judge_flood_h3_test
}  // namespace loiter::suites
