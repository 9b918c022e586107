// The side-by-side comparison table, under the two runs it compares.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "loiter/reports/compare.hpp"

namespace loiter::reports {

void render_comparison(const Comparison& comparison, std::ostream& out) {
  fmt::print(out, "baseline: {}\ncurrent:  {}\n", comparison.baseline_run, comparison.current_run);
  for (const auto& warning : comparison.warnings) fmt::print(out, "warning: {}\n", warning);
  fmt::print(out, "\n");
  const auto what_of = [](const ComparisonRow& row) {
    return row.unit.empty() ? row.what : fmt::format("{} ({})", row.what, row.unit);
  };
  std::size_t width = 8, what_width = 16;  // at least as wide as their headings' columns
  for (const auto& row : comparison.rows) {
    width = std::max(width, row.scenario.size());
    what_width = std::max(what_width, what_of(row).size());
  }
  fmt::print(out, "{:<{}}  {:<{}} {:>10} {:>10} {:>11}  {}\n", "scenario", width, "figure",
             what_width, "baseline", "current", "delta", "verdict");
  for (const auto& row : comparison.rows) {
    std::string verdict = row.regressed ? "REGRESSED" : "ok";
    if (!row.note.empty()) verdict += fmt::format(" ({})", row.note);
    fmt::print(out, "{:<{}}  {:<{}} {:>10} {:>10} {:>11}  {}\n", row.scenario, width, what_of(row),
               what_width, row.baseline, row.current, row.delta, verdict);
  }
  std::size_t regressions = 0;
  for (const auto& row : comparison.rows) regressions += row.regressed;
  fmt::print(out, "\n{}\n",
             comparison.regressed
                 ? fmt::format("{} regression(s) against the baseline", regressions)
                 : std::string("no regression against the baseline"));
}

}  // namespace loiter::reports
