// `loiter compare` of two surveys: what a server does with stalled clients now against what it
// did, measure by measure. A pure function of two survey documents, in the manner of
// compare.hpp for runs: a deadline that grew past the slack or went away, progress that now
// extends a deadline, an answer or a clock's origin that would break what the baseline's
// drafted target file promises, is a regression; a deadline that shrank is shown, not one.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "loiter/reports/survey.hpp"

namespace loiter::reports {

// The least slack two deadlines may differ by before growth is a regression, seconds.
inline constexpr double kSurveyMinimumSlack = 0.25;

// One compared figure of one measure.
struct SurveyComparisonRow {
  std::string measure;   // "header-partial"
  std::string what;      // "deadline", "ending", "extends", "runs from", "measured"
  std::string unit;      // "s" for a deadline, else empty
  std::string baseline;  // as shown: "2.00", "open", "408+close", "false", "-"
  std::string current;
  std::string delta;  // "+0.50", "408+close→close", "false→true", ""
  bool regressed = false;
  std::string note;  // "limit 2.25 s", "lost its 408", "not in the current survey"
};

struct SurveyComparison {
  std::string baseline_survey;  // "0.1.0 against nginx at 127.0.0.1:8080 (2026-12-03T11:00:00Z)"
  std::string current_survey;
  double slack = kSurveyMinimumSlack;  // the larger of the two surveys' slack, at least 0.25
  std::vector<SurveyComparisonRow> rows;
  bool regressed = false;  // any row regressed
  // Measures both surveys measured: with none, there is nothing to gate on.
  std::size_t shared_measures = 0;
  bool same_target = true;
  // What makes the two less comparable than they look: different targets, protocols or loiter
  // versions, an interrupted survey.
  std::vector<std::string> warnings;
};

SurveyComparison compare_surveys(const Survey& baseline, const Survey& current);

// The side-by-side table (under any warnings), one row per compared figure, then one line:
// the gate's outcome.
void render_survey_comparison(const SurveyComparison& comparison, std::ostream& out);

}  // namespace loiter::reports
