// judge() on canned flood observations: the flood ended by GOAWAY or close within its
// frames, the GOAWAY's code, the control client's answers and p99, the server's RSS.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {
namespace judge_flood_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;

constexpr std::string_view kFlood = "h2-rapid-reset";
constexpr std::string_view kControl = "h2-control";

ConnectionRecord flood(std::size_t sent, std::optional<std::uint32_t> goaway_code, Ending ending,
                       std::size_t sent_at_goaway = 0) {
  ConnectionRecord r{.kind = kFlood, .ending = ending, .ended_at = 1s};
  r.h2.emplace();
  r.h2->frames_sent = sent;
  if (goaway_code)
    r.h2->goaway = clients::H2Goaway{.code = *goaway_code, .frames_sent = sent_at_goaway};
  return r;
}

// `n` requests answered `status` within 1 ms, one of them at `slowest`.
ConnectionRecord control(std::size_t n, unsigned status = 200, Duration slowest = 1ms) {
  ConnectionRecord r{.kind = kControl, .requests = n, .ending = Ending::client_close};
  r.h2.emplace();
  for (std::size_t i = 0; i < n; ++i) {
    r.responses.push_back({.status = status, .complete = Duration(1s)});
    r.h2->latencies.push_back(i == 0 ? slowest : 1ms);
  }
  return r;
}

Observation observe(std::vector<ConnectionRecord> records, std::size_t rss_kib = 0) {
  return testing::flood_observation("h2-rapid-reset", std::move(records), rss_kib);
}

Expectations expect(std::optional<Duration> p99 = 200ms, std::optional<std::uint64_t> rss = {}) {
  return {.connections = 2,
          .patience = 10s,
          .flood = FloodExpectation{.kind = std::string(kFlood),
                                    .control_kind = std::string(kControl),
                                    .frames = 1000,
                                    .p99 = p99,
                                    .rss = rss}};
}

// A GOAWAY ENHANCE_YOUR_CALM after 400 frames, the control answered fast: a pass.
TEST(JudgeFlood, PassesAGoawayWithinTheFramesAndAFastControl) {
  const auto v = judge(observe({flood(900, 0xb, Ending::close, 400), control(100)}), expect());
  EXPECT_TRUE(v.passed);
  EXPECT_THAT(v.findings, IsEmpty());
}

// A close without GOAWAY within the bound is an ending too.
TEST(JudgeFlood, PassesACloseWithinTheFrames) {
  const auto v = judge(observe({flood(600, std::nullopt, Ending::reset), control(100)}), expect());
  EXPECT_THAT(v.findings, IsEmpty());
}

// A flood still open at the end was never stopped: named with the frames it sent.
TEST(JudgeFlood, NamesAFloodTheServerNeverEnded) {
  const auto v =
      judge(observe({flood(2000, std::nullopt, Ending::client_close), control(100)}), expect());
  EXPECT_THAT(v.findings,
              ElementsAre(AllOf(counted(codes::kFloodNotEnded, 1, 1), figure(2000, 1000))));
}

// A GOAWAY that came only after more frames than declared is late.
TEST(JudgeFlood, NamesAGoawayAfterTooManyFrames) {
  const auto v = judge(observe({flood(3000, 0xb, Ending::close, 2500), control(100)}), expect());
  EXPECT_THAT(v.findings,
              ElementsAre(AllOf(counted(codes::kFloodOverFrames, 1, 1), figure(2500, 1000))));
}

// A GOAWAY NO_ERROR the server does not follow with its close (the flood client stopped
// at it and closed first) is not the flood's refusal; followed by the close, it is.
TEST(JudgeFlood, NamesAnotherGoawayCodeWithoutTheServersClose) {
  const auto closed = judge(observe({flood(900, 0x0, Ending::close, 500), control(100)}), expect());
  EXPECT_THAT(closed.findings, IsEmpty());
  const auto v =
      judge(observe({flood(900, 0x0, Ending::client_close, 500), control(100)}), expect());
  EXPECT_THAT(v.findings, ElementsAre(AllOf(counted(codes::kFloodGoawayCode, 1, 1),
                                            Field(&Finding::error, "NO_ERROR (0x0)"))));
}

// Control requests unanswered or answered 503 are named with what they got.
TEST(JudgeFlood, NamesControlRequestsNotAnswered200) {
  auto slow = control(10, 503);
  slow.requests = 12;  // two never answered
  const auto v = judge(observe({flood(500, 0xb, Ending::close, 400), slow}), expect());
  ASSERT_THAT(v.findings, ElementsAre(counted(codes::kControlUnanswered, 12, 12)));
  EXPECT_THAT(v.findings[0].failures, ElementsAre(Pair("503", 10), Pair("unanswered", 2)));
}

// The control's p99 over its bound is named in ms; without a bound it is not judged.
TEST(JudgeFlood, JudgesTheControlP99OnlyAgainstADeclaredBound) {
  auto records = std::vector{flood(500, 0xb, Ending::close, 400), control(100, 200, 900ms)};
  records[1].h2->latencies[1] = 800ms;
  const auto v = judge(observe(records), expect(200ms));
  EXPECT_THAT(v.findings, ElementsAre(AllOf(has_code(codes::kP99OverBound), figure(800, 200))));
  EXPECT_THAT(judge(observe(records), expect(std::nullopt)).findings, IsEmpty());
}

// The server's RSS peak above the declared bound is named in MiB.
TEST(JudgeFlood, NamesAnRssPeakOverTheBound) {
  const auto v = judge(observe({flood(500, 0xb, Ending::close, 400), control(10)}, 600 * 1024),
                       expect(200ms, std::uint64_t{512} << 20));
  EXPECT_THAT(v.findings, ElementsAre(AllOf(has_code(codes::kRssOverBound), figure(600, 512))));
}

// The nearest-rank p99 of 100 latencies is the 99th smallest.
TEST(ControlP99, IsTheNearestRank) {
  std::vector<Duration> latencies;
  for (int i = 1; i <= 100; ++i) latencies.push_back(std::chrono::milliseconds(i));
  EXPECT_EQ(control_p99(latencies), Duration(99ms));
  EXPECT_EQ(control_p99({}), std::nullopt);
}

}  // namespace judge_flood_test
}  // namespace loiter::suites
