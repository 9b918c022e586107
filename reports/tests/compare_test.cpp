// compare(): a pass turning into a fail, a figure worse than its threshold, or a finding
// (by code) the baseline did not have, is a regression; the same run twice is not.
#include "loiter/reports/compare.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;

ScenarioReport scenario(Status status, double closure_max, double fds_after, double rss_peak,
                        std::optional<double> p99 = std::nullopt) {
  ScenarioReport s{.id = "silent", .status = status};
  s.figures = {
      {.name = "closure", .unit = "s", .values = {{"min", 1.0}, {"max", closure_max}}},
      {.name = "FDs", .unit = "", .values = {{"baseline", 6}, {"peak", 106}, {"after", fds_after}}},
      {.name = "RSS", .unit = "KiB", .values = {{"peak", rss_peak}}}};
  if (p99) s.figures.push_back({.name = "latency", .unit = "ms", .values = {{"p99", *p99}}});
  return s;
}

RunReport run(ScenarioReport s) {
  return {.loiter_version = "0.1.0",
          .target = "reference",
          .started_at = "now",
          .scenarios = {std::move(s)}};
}

const ComparisonRow& row(const Comparison& c, std::string_view what) {
  for (const auto& r : c.rows) {
    if (r.what == what) return r;
  }
  throw std::runtime_error("no row " + std::string(what));
}

TEST(Compare, TheSameRunTwiceIsNoRegression) {
  const auto base = run(scenario(Status::pass, 1.01, 6, 4000, 2.0));
  const auto result = compare(base, base);
  EXPECT_FALSE(result.regressed);
  EXPECT_EQ(result.rows.size(), 5u);
}

TEST(Compare, PassToFailIsARegression) {
  const auto result = compare(run(scenario(Status::pass, 1.01, 6, 4000)),
                              run(scenario(Status::fail, 1.01, 6, 4000)));
  EXPECT_TRUE(result.regressed);
  EXPECT_TRUE(row(result, "verdict").regressed);
  EXPECT_EQ(row(result, "verdict").delta, "pass→fail");
}

TEST(Compare, ClosureMaxMayGrowByTheThresholdOnly) {
  const auto base = run(scenario(Status::pass, 1.0, 6, 4000));
  EXPECT_FALSE(compare(base, run(scenario(Status::pass, 1.4, 6, 4000))).regressed);
  EXPECT_TRUE(compare(base, run(scenario(Status::pass, 1.6, 6, 4000))).regressed);
  EXPECT_FALSE(compare(base, run(scenario(Status::pass, 1.6, 6, 4000)), {.closure_max_plus_s = 1.0})
                   .regressed);
}

TEST(Compare, OneMoreFdAfterRecoveryIsARegression) {
  const auto result = compare(run(scenario(Status::pass, 1.0, 6, 4000)),
                              run(scenario(Status::pass, 1.0, 206, 4000)));
  EXPECT_TRUE(row(result, "FDs left").regressed);
  EXPECT_EQ(row(result, "FDs left").current, "200");
}

TEST(Compare, RssPeakMayGrowByTheFactorOnly) {
  const auto base = run(scenario(Status::pass, 1.0, 6, 4000));
  EXPECT_FALSE(compare(base, run(scenario(Status::pass, 1.0, 6, 5900))).regressed);
  EXPECT_TRUE(compare(base, run(scenario(Status::pass, 1.0, 6, 6100))).regressed);
}

TEST(Compare, P99MustExceedBothFactorAndMargin) {
  const auto base = run(scenario(Status::pass, 1.0, 6, 4000, 2.0));
  // 2 ms × 1.5 = 3 ms, 2 ms + 5 ms = 7 ms: the larger limit applies.
  EXPECT_FALSE(compare(base, run(scenario(Status::pass, 1.0, 6, 4000, 6.5))).regressed);
  EXPECT_TRUE(compare(base, run(scenario(Status::pass, 1.0, 6, 4000, 7.5))).regressed);
}

TEST(Compare, TableShowsBothRunsSideBySide) {
  const auto result =
      compare(run(scenario(Status::pass, 1.0, 6, 4000)), run(scenario(Status::fail, 2.0, 6, 4000)));
  std::ostringstream out;
  render_comparison(result, out);
  EXPECT_THAT(out.str(), HasSubstr("baseline: 0.1.0 against reference (now)"));
  EXPECT_THAT(out.str(), HasSubstr("scenario"));
  EXPECT_THAT(out.str(), HasSubstr("closure max (s)"));
  EXPECT_THAT(out.str(), HasSubstr("REGRESSED"));
  EXPECT_THAT(out.str(), HasSubstr("2 regression(s)"));
}

Finding found(std::string code, std::string subject = {}) {
  return {.code = std::move(code),
          .scenario = "silent",
          .klass = FindingClass::deadline,
          .subject = std::move(subject),
          .count = 1,
          .of = 100,
          .measured = 2.1,
          .bound = 2.0,
          .unit = "s",
          .since = Since::connect,
          .deadline = 2.0,
          .slack = 0.1};
}

ScenarioReport failing(std::vector<Finding> findings) {
  auto s = scenario(Status::fail, 2.1, 6, 4000);
  s.findings = std::move(findings);
  return s;
}

// A code the baseline's scenario did not have is a regression row, though the verdict
// (fail both times) did not change; one it had and the current run has not is an improvement.
TEST(Compare, AFindingThatAppearedIsARegressionAndOneGoneIsNot) {
  const auto result =
      compare(run(failing({found(codes::kClosedLate)})), run(failing({found(codes::kStillOpen)})));
  EXPECT_TRUE(result.regressed);
  EXPECT_FALSE(row(result, "verdict").regressed);
  const auto& appeared = row(result, "finding still-open");
  EXPECT_TRUE(appeared.regressed);
  EXPECT_EQ(appeared.delta, "appeared");
  EXPECT_THAT(appeared.note,
              HasSubstr("1/100 connections still open when the client stopped watching, 2.100 s"));
  const auto& gone = row(result, "finding closed-late");
  EXPECT_FALSE(gone.regressed);
  EXPECT_EQ(gone.delta, "gone");
  EXPECT_EQ(gone.note, "improved");
}

// Findings are told apart by code (and the kind they are about), not by their figures.
TEST(Compare, TheSameCodesWithOtherFiguresAreNoRegression) {
  auto later = found(codes::kClosedLate);
  later.measured = 2.3;
  later.count = 40;
  const auto result = compare(run(failing({found(codes::kClosedLate)})), run(failing({later})));
  EXPECT_FALSE(result.regressed);
  EXPECT_EQ(result.rows.size(), 4u);  // the verdict and three figures: no finding row
  // The same code about another kind of a mix is a finding of its own.
  const auto mixed = compare(run(failing({found(codes::kStillOpen, "silent")})),
                             run(failing({found(codes::kStillOpen, "partial-header")})));
  EXPECT_TRUE(row(mixed, "finding still-open (partial-header)").regressed);
  EXPECT_FALSE(row(mixed, "finding still-open (silent)").regressed);
}

// A loiter-run/2 baseline has sentences, not codes: its findings are not diffed, and say so.
TEST(Compare, FindingsWithoutCodesAreNotComparedByCode) {
  const auto result =
      compare(run(failing({{.code = codes::kText, .sentence = "1/100 connections closed late"}})),
              run(failing({found(codes::kClosedLate)})));
  EXPECT_FALSE(result.regressed);
  EXPECT_THAT(row(result, "findings").note, HasSubstr("loiter-run/2"));
}

TEST(Compare, AScenarioMissingFromTheCurrentRunIsShownNotFailed) {
  auto current = run(scenario(Status::pass, 1.0, 6, 4000));
  current.scenarios[0].id = "other";
  const auto result = compare(run(scenario(Status::pass, 1.0, 6, 4000)), current);
  EXPECT_FALSE(result.regressed);
  EXPECT_EQ(result.rows.front().note, "not in the current run");
  EXPECT_EQ(result.shared_scenarios, 0u);  // the command line refuses such a gate (exit 2)
}

// Runs of the same target by the same loiter have nothing to warn about, and count the
// scenarios they share.
TEST(Compare, RunsOfOneTargetAndVersionHaveNoWarning) {
  const auto result =
      compare(run(scenario(Status::pass, 1.0, 6, 4000)), run(scenario(Status::pass, 1.0, 6, 4000)));
  EXPECT_TRUE(result.same_target);
  EXPECT_TRUE(result.warnings.empty());
  EXPECT_EQ(result.shared_scenarios, 1u);
}

// A different target or loiter version is named in a warning above the table.
TEST(Compare, ADifferentTargetOrVersionIsWarnedAbove) {
  auto current = run(scenario(Status::pass, 1.0, 6, 4000));
  current.target = "nginx";
  current.loiter_version = "0.2.0";
  const auto result = compare(run(scenario(Status::pass, 1.0, 6, 4000)), current);
  EXPECT_FALSE(result.same_target);
  ASSERT_EQ(result.warnings.size(), 2u);
  EXPECT_EQ(result.warnings[0],
            "the runs are of different targets: reference (baseline), nginx (current)");
  EXPECT_THAT(result.warnings[1], HasSubstr("different loiter versions: 0.1.0 (baseline), 0.2.0"));
  std::ostringstream table;
  render_comparison(result, table);
  EXPECT_THAT(table.str(), HasSubstr("\nwarning: the runs are of different targets"));
}

}  // namespace
}  // namespace loiter::reports
