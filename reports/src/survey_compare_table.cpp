// The side-by-side table of two surveys, under the two surveys it compares.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "loiter/reports/survey_compare.hpp"

namespace loiter::reports {

void render_survey_comparison(const SurveyComparison& comparison, std::ostream& out) {
  fmt::print(out, "baseline: {}\ncurrent:  {}\n", comparison.baseline_survey,
             comparison.current_survey);
  for (const auto& warning : comparison.warnings) fmt::print(out, "warning: {}\n", warning);
  fmt::print(out, "slack: {:.2f} s\n\n", comparison.slack);
  const auto what_of = [](const SurveyComparisonRow& row) {
    return row.unit.empty() ? row.what : fmt::format("{} ({})", row.what, row.unit);
  };
  std::size_t width = 7, what_width = 12, value_width = 10;  // at least their headings' widths
  for (const auto& row : comparison.rows) {
    width = std::max(width, row.measure.size());
    what_width = std::max(what_width, what_of(row).size());
    value_width = std::max({value_width, row.baseline.size(), row.current.size()});
  }
  const auto print_row = [&](std::string_view measure, std::string_view what,
                             std::string_view baseline, std::string_view current,
                             std::string_view delta, std::string_view verdict) {
    fmt::print(out, "{:<{}}  {:<{}} {:>{}} {:>{}} {:>11}  {}\n", measure, width, what, what_width,
               baseline, value_width, current, value_width, delta, verdict);
  };
  print_row("measure", "figure", "baseline", "current", "delta", "verdict");
  for (const auto& row : comparison.rows) {
    std::string verdict = row.regressed ? "REGRESSED" : "ok";
    if (!row.note.empty()) verdict += fmt::format(" ({})", row.note);
    print_row(row.measure, what_of(row), row.baseline, row.current, row.delta, verdict);
  }
  const auto regressions = std::ranges::count_if(comparison.rows, &SurveyComparisonRow::regressed);
  fmt::print(out, "\n{}\n",
             comparison.regressed
                 ? fmt::format("{} regression(s) against the baseline survey", regressions)
                 : std::string("no regression against the baseline survey"));
}

}  // namespace loiter::reports
