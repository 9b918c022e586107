// compare_surveys(): a deadline grown past the slack or gone, progress that now extends a
// deadline, a 408 lost, a clock's origin that lets a stall last longer, is a regression; the
// same survey twice and a deadline that shrank are not.
#include "loiter/reports/survey_compare.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "canned_survey.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;

const SurveyComparisonRow& row(const SurveyComparison& c, std::string_view measure,
                               std::string_view what) {
  for (const auto& r : c.rows) {
    if (r.measure == measure && r.what == what) return r;
  }
  throw std::runtime_error(fmt::format("no row {} {}", measure, what));
}

// The comparison as a table, as `loiter compare` prints it for two surveys.
std::string comparison_text(const SurveyComparison& c) {
  std::ostringstream out;
  render_survey_comparison(c, out);
  return out.str();
}

std::size_t regressions(const SurveyComparison& c) {
  return static_cast<std::size_t>(std::ranges::count_if(c.rows, &SurveyComparisonRow::regressed));
}

TEST(SurveyCompare, TheSameSurveyTwiceIsNoRegression) {
  const auto survey = canned::everything(SurveyProtocol::h2, true);
  const auto c = compare_surveys(survey, survey);
  EXPECT_FALSE(c.regressed);
  EXPECT_EQ(c.shared_measures, survey.measures.size());
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(row(c, "header-partial", "deadline").baseline, "3.00");
  EXPECT_EQ(row(c, "header-partial", "ending").current, "408+close");
  EXPECT_EQ(row(c, "body-trickle", "extends").current, "true");
  EXPECT_EQ(row(c, "next-head", "runs from").current, "first-byte");
  EXPECT_THAT(comparison_text(c), HasSubstr("no regression against the baseline survey"));
}

// A survey of a running server named by its address (--connect, no target file) is titled
// by that address once; one of a target at an address, by both.
TEST(SurveyCompare, ARunningServerNamedByItsAddressIsTitledByItOnce) {
  auto survey = canned::everything(SurveyProtocol::h2, true);
  survey.target = survey.endpoint;
  auto c = compare_surveys(survey, survey);
  EXPECT_THAT(c.baseline_survey, HasSubstr("against " + survey.endpoint + " ("));
  survey.target = "nginx";
  c = compare_surveys(survey, survey);
  EXPECT_THAT(c.current_survey, HasSubstr("against nginx at " + survey.endpoint + " ("));
}

TEST(SurveyCompare, ADeadlineGrownPastTheSlackRegressesAndOneWithinItDoesNot) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "idle").seconds->median = 5.2;  // within 0.25 s
  canned::measure(current, "header-partial").seconds->median = 3.5;
  const auto c = compare_surveys(baseline, current);
  EXPECT_FALSE(row(c, "idle", "deadline").regressed);
  const auto& grown = row(c, "header-partial", "deadline");
  EXPECT_TRUE(grown.regressed);
  EXPECT_EQ(grown.delta, "+0.50");
  EXPECT_EQ(grown.note, "limit 3.25 s");
  EXPECT_EQ(regressions(c), 1u);
}

// The slack is the larger survey's, and never under 0.25 s.
TEST(SurveyCompare, TheSlackIsTheLargerSurveysAndAtLeastAQuarterSecond) {
  auto baseline = canned::everything();
  baseline.slack = 0.1;
  auto current = baseline;
  canned::measure(current, "idle").seconds->median = 5.24;
  EXPECT_FALSE(compare_surveys(baseline, current).regressed);
  current.slack = 1.0;
  canned::measure(current, "idle").seconds->median = 5.9;
  const auto c = compare_surveys(baseline, current);
  EXPECT_DOUBLE_EQ(c.slack, 1.0);
  EXPECT_FALSE(c.regressed);
}

TEST(SurveyCompare, ADeadlineGoneOpenRegresses) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "header-silent") =
      canned::timed("header-silent", "a silent connection", std::nullopt);
  const auto c = compare_surveys(baseline, current);
  const auto& gone = row(c, "header-silent", "deadline");
  EXPECT_TRUE(gone.regressed);
  EXPECT_EQ(gone.current, "open");
  EXPECT_EQ(gone.note, "no ending within 120 s now");
  EXPECT_FALSE(row(c, "header-silent", "ending").regressed);  // counted once, as the deadline
  EXPECT_EQ(regressions(c), 1u);
}

TEST(SurveyCompare, ADeadlineThatShrankIsShownNotARegression) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "send-stopped").seconds->median = 2.0;
  const auto c = compare_surveys(baseline, current);
  const auto& shrank = row(c, "send-stopped", "deadline");
  EXPECT_FALSE(shrank.regressed);
  EXPECT_EQ(shrank.delta, "-4.00");
  EXPECT_EQ(shrank.note, "shrank");
  // and an open baseline that now ends is a deadline gained
  auto open = baseline;
  canned::measure(open, "send-stopped") =
      canned::timed("send-stopped", "a reader that stopped", std::nullopt);
  EXPECT_FALSE(compare_surveys(open, baseline).regressed);
}

// A probe the server answered whole (a slow reader given its response) met no deadline: its
// time may grow, and an ending now "answered" breaks no promise.
TEST(SurveyCompare, AnAnsweredProbeIsATimeNotADeadline) {
  auto baseline = canned::everything();
  canned::measure(baseline, "send-slow") =
      canned::with_extends(canned::timed("send-slow", "a slow reader", 3.46, "answered"), true, "");
  auto current = baseline;
  canned::measure(current, "send-slow").seconds->median = 9.0;
  canned::measure(current, "send-stopped").ending = canned::ending("answered");
  const auto c = compare_surveys(baseline, current);
  EXPECT_EQ(row(c, "send-slow", "time").note, "answered whole: no deadline met");
  EXPECT_FALSE(row(c, "send-stopped", "ending").regressed);
  EXPECT_FALSE(c.regressed);
}

TEST(SurveyCompare, AnUnchangedDeadlineShowsNoSignedZero) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "idle").seconds->median = 4.999;
  EXPECT_EQ(row(compare_surveys(baseline, current), "idle", "deadline").delta, "+0.00");
}

TEST(SurveyCompare, ProgressThatNowExtendsADeadlineRegresses) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "header-bytes").extends = true;
  canned::measure(current, "body-trickle").extends = false;  // the other way: fine
  const auto c = compare_surveys(baseline, current);
  EXPECT_TRUE(row(c, "header-bytes", "extends").regressed);
  EXPECT_EQ(row(c, "header-bytes", "extends").delta, "false→true");
  EXPECT_FALSE(row(c, "body-trickle", "extends").regressed);
  EXPECT_EQ(regressions(c), 1u);
}

// A 408 lost breaks a "408" promise; a 408 gained, or a reset for a close, keeps its promise.
TEST(SurveyCompare, AnEndingThatLostIts408Regresses) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "header-partial").ending = canned::ending("close");
  canned::measure(current, "body-partial").ending = canned::ending("408+close");
  canned::measure(current, "send-stopped").ending = canned::ending("close");  // was reset
  const auto c = compare_surveys(baseline, current);
  const auto& lost = row(c, "header-partial", "ending");
  EXPECT_TRUE(lost.regressed);
  EXPECT_EQ(lost.delta, "408+close→close");
  EXPECT_THAT(lost.note, HasSubstr("lost its 408"));
  EXPECT_FALSE(row(c, "body-partial", "ending").regressed);
  EXPECT_FALSE(row(c, "send-stopped", "ending").regressed);
  EXPECT_EQ(regressions(c), 1u);
  // another status breaks a close promise too
  auto other = baseline;
  canned::measure(other, "body-partial").ending = canned::ending("400+close");
  EXPECT_TRUE(row(compare_surveys(baseline, other), "body-partial", "ending").regressed);
}

TEST(SurveyCompare, ClockOriginsThatLetAStallLastLongerRegress) {
  const auto baseline = canned::everything(SurveyProtocol::h2, true);
  auto current = baseline;
  canned::measure(current, "next-head").runs_from = canned::runs_from("never");
  canned::measure(current, "idle-reused").runs_from = canned::runs_from("connect");
  canned::measure(current, "tls-header-from").runs_from =
      canned::runs_from("connect");  // handshake→connect: fine
  canned::measure(current, "h2-idle").runs_from = canned::runs_from("none");
  const auto c = compare_surveys(baseline, current);
  EXPECT_TRUE(row(c, "next-head", "runs from").regressed);
  EXPECT_EQ(row(c, "next-head", "runs from").delta, "first-byte→never");
  EXPECT_TRUE(row(c, "idle-reused", "runs from").regressed);
  EXPECT_FALSE(row(c, "tls-header-from", "runs from").regressed);
  EXPECT_TRUE(row(c, "h2-idle", "runs from").regressed);
  EXPECT_EQ(regressions(c), 3u);
  EXPECT_TRUE(row(compare_surveys(current, baseline), "tls-header-from", "runs from").regressed);
}

TEST(SurveyCompare, MeasuresInOneSurveyOnlyAreShownNotCompared) {
  auto baseline = canned::everything();
  auto current = baseline;
  current.measures.erase(current.measures.begin());  // header-silent
  canned::measure(current, "body-partial") = canned::not_measured("body-partial", "no echo path");
  baseline.measures.pop_back();  // h2-headers-no-end
  const auto c = compare_surveys(baseline, current);
  EXPECT_FALSE(c.regressed);
  EXPECT_EQ(row(c, "header-silent", "measured").note, "not in the current survey");
  EXPECT_EQ(row(c, "h2-headers-no-end", "measured").note, "not in the baseline");
  EXPECT_EQ(row(c, "body-partial", "measured").current, "no");
  EXPECT_EQ(row(c, "body-partial", "measured").note, "no echo path");
  EXPECT_EQ(c.shared_measures, baseline.measures.size() - 2);
}

TEST(SurveyCompare, DifferentTargetsAndProtocolsAreWarnings) {
  const auto baseline = canned::everything();
  auto current = canned::everything(SurveyProtocol::http1, true);
  current.target = "caddy";
  const auto c = compare_surveys(baseline, current);
  EXPECT_FALSE(c.same_target);
  EXPECT_THAT(c.warnings, ::testing::ElementsAre(
                              "the surveys are of different targets: nginx (baseline), caddy "
                              "(current)",
                              "the surveys spoke different protocols: http1 (baseline), http1 "
                              "over TLS (current)"));
  EXPECT_THAT(comparison_text(c), HasSubstr("warning: the surveys are of different targets"));
}

TEST(SurveyCompare, TheTableShowsEachRegressionAndCountsThem) {
  const auto baseline = canned::everything();
  auto current = baseline;
  canned::measure(current, "header-partial").seconds->median = 4.0;
  const auto text = comparison_text(compare_surveys(baseline, current));
  std::istringstream lines(text);
  std::string line, grown;
  while (std::getline(lines, line)) {
    if (line.starts_with("header-partial ") && line.find("deadline (s)") != std::string::npos)
      grown = line;
  }
  EXPECT_THAT(
      grown, ::testing::MatchesRegex("header-partial +deadline \\(s\\) +3\\.00 +4\\.00 +\\+1\\.00  "
                                     "REGRESSED \\(limit 3\\.25 s\\)"));
  EXPECT_THAT(text, HasSubstr("\n1 regression(s) against the baseline survey\n"));
}

}  // namespace
}  // namespace loiter::reports
