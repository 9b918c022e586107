// The sign test's interval, the paired verdicts and the ABBA order, on canned figures.
#include <gtest/gtest.h>

#include "loiter/suites/ladder/conclude.hpp"

namespace loiter::suites::ladder {
namespace {

using reports::PairedVerdict;

// 64 connections' requests/s (higher is better), paired from the two sides' trials at the
// ladder's 5 % tolerance.
reports::PairedFigure requests_figure(std::vector<double> baseline, std::vector<double> candidate) {
  return pair_figure("64 connections", "requests/s", "/s", true, std::move(baseline),
                     std::move(candidate), 0.05);
}

// The server's CPU per request at 5,000/s (lower is better), paired the same way.
reports::PairedFigure cpu_figure(std::vector<double> baseline, std::vector<double> candidate) {
  return pair_figure("5,000/s", "server CPU/request", "µs", false, std::move(baseline),
                     std::move(candidate), 0.05);
}

TEST(SignInterval, SixValuesGiveMinAndMaxAt97Percent) {
  const auto interval = sign_interval({0.3, -0.1, 0.2, 0.5, 0.1, 0.4});
  EXPECT_DOUBLE_EQ(interval.low, -0.1);
  EXPECT_DOUBLE_EQ(interval.high, 0.5);
  EXPECT_NEAR(interval.confidence, 1 - 2.0 / 64, 1e-12);
}

TEST(SignInterval, TwelveValuesTakeTheThirdFromEachEnd) {
  // Binomial(12, 1/2): P(X <= 2) = 79/4096, so k = 3 covers 1 - 158/4096 = 96.1%.
  std::vector<double> values;
  for (int i = 1; i <= 12; ++i) values.push_back(i);
  const auto interval = sign_interval(values);
  EXPECT_DOUBLE_EQ(interval.low, 3);
  EXPECT_DOUBLE_EQ(interval.high, 10);
  EXPECT_NEAR(interval.confidence, 1 - 158.0 / 4096, 1e-12);
}

TEST(SignInterval, FiveValuesCannotReach95AndSaySo) {
  const auto interval = sign_interval({1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(interval.low, 1);
  EXPECT_DOUBLE_EQ(interval.high, 5);
  EXPECT_NEAR(interval.confidence, 0.9375, 1e-12);
}

TEST(SignInterval, OneValueEstablishesNothing) { EXPECT_EQ(sign_interval({3}).confidence, 0); }

TEST(PairedFigure, EveryPairWorseBeyondTheToleranceIsWorse) {
  const auto figure = requests_figure({10000, 10200, 9900, 10100, 10050, 9950},
                                      {7000, 7100, 6900, 7050, 7000, 6950});
  EXPECT_EQ(figure.verdict, PairedVerdict::worse);
  EXPECT_LT(figure.high, 0);
  EXPECT_NEAR(figure.median_change, -0.3, 0.01);
  ASSERT_EQ(figure.change.size(), 6u);
}

TEST(PairedFigure, TheSameFigureUpOneWayDownTheOtherEstablishesNothing) {
  const auto figure = requests_figure({10000, 10000, 10000, 10000, 10000, 10000},
                                      {10300, 9800, 10100, 9700, 10200, 9900});
  EXPECT_EQ(figure.verdict, PairedVerdict::no_difference);
  EXPECT_LE(figure.low, 0);
  EXPECT_GE(figure.high, 0);
}

TEST(PairedFigure, OneSideOfZeroButWithinTheToleranceIsNotWorse) {
  const auto figure = cpu_figure({20, 20, 20, 20, 20, 20}, {20.4, 20.6, 20.2, 20.8, 20.4, 20.5});
  EXPECT_EQ(figure.verdict, PairedVerdict::within_tolerance);
}

TEST(PairedFigure, LowerIsBetterForCpuAndP99) {
  const auto figure = cpu_figure({20, 21, 20, 19, 20, 20}, {10, 11, 10, 9, 10, 10});
  EXPECT_EQ(figure.verdict, PairedVerdict::better);
}

TEST(PairedFigure, AP99MovedLessThanTheTickIsWithinToleranceWhateverItsShare) {
  const auto figure = pair_figure("1,000/s", "p99", "ms", false, {1.0, 1.1, 0.9, 1.0, 1.0, 1.0},
                                  {1.5, 1.6, 1.4, 1.5, 1.5, 1.5}, 0.05, kP99FloorMs);
  EXPECT_EQ(figure.verdict, PairedVerdict::within_tolerance);
  EXPECT_NE(figure.note.find("below the 1 ms"), std::string::npos) << figure.note;
}

TEST(PairedFigure, FewerThanSixPairsEstablishNothingHoweverFarApart) {
  // Five pairs all 90% worse: their widest interval covers 93.8%, short of 95%.
  const auto figure = requests_figure({100, 100, 100, 100, 100}, {10, 10, 10, 10, 10});
  EXPECT_EQ(figure.verdict, PairedVerdict::no_difference);
  EXPECT_NE(figure.note.find("5 pairs cannot establish anything at 95%"), std::string::npos)
      << figure.note;
  EXPECT_EQ(requests_figure({100}, {10}).verdict, PairedVerdict::no_difference);
}

TEST(AbbaOrder, AlternatesWhichSideGoesFirst) {
  EXPECT_EQ(abba_order(3), (std::vector<std::size_t>{0, 1, 1, 0, 0, 1}));
}

TEST(CompareSides, SaturationIsComparedOnRateP99AndCpuAndARateStepOnP99AndCpu) {
  reports::LadderTrial a{.seconds = 1,
                         .requested = 1000,
                         .dispatched = 1000,
                         .succeeded = 1000,
                         .p99_ms = 5,
                         .server_cpu_s = 0.02};
  auto b = a;
  b.succeeded = 500;
  b.dispatched = 500;
  b.requested = 500;
  b.server_cpu_s = 0.05;
  const reports::LadderStep rate{
      .kind = reports::StepKind::rate, .rate = 1000, .trials = {a, a, a, a, a, a}};
  const reports::LadderStep sat{
      .kind = reports::StepKind::saturation, .connections = 64, .trials = {a, a, a, a, a, a}};
  auto rate_b = rate;
  auto sat_b = sat;
  sat_b.trials = {b, b, b, b, b, b};
  reports::Ladder ladder{.tolerance = 0.05,
                         .sides = {{.role = "baseline", .steps = {rate, sat}},
                                   {.role = "candidate", .steps = {rate_b, sat_b}}}};
  const auto figures = compare_sides(ladder);
  ASSERT_EQ(figures.size(), 5u);
  EXPECT_EQ(figures[0].step, "1,000/s");
  EXPECT_EQ(figures[0].figure, "p99");
  EXPECT_EQ(figures[2].figure, "requests/s");
  EXPECT_EQ(figures[2].verdict, PairedVerdict::worse);
  EXPECT_EQ(figures[4].figure, "server CPU/request");
  EXPECT_EQ(figures[4].verdict, PairedVerdict::worse);  // 20 -> 100 µs a request
  EXPECT_TRUE(reports::candidate_worse(reports::Ladder{.comparison = figures}));
}

}  // namespace
}  // namespace loiter::suites::ladder
