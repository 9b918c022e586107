// The side-by-side comparison table, under the two runs it compares.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "loiter/reports/compare.hpp"

namespace loiter::reports {

void render_comparison(const Comparison& comparison, std::ostream& out) {
  fmt::print(out, "baseline: {}\ncurrent:  {}\n\n", comparison.baseline_run,
             comparison.current_run);
  std::size_t width = 8;
  for (const auto& row : comparison.rows) width = std::max(width, row.scenario.size());
  fmt::print(out, "{:<{}}  {:<16} {:>10} {:>10} {:>11}  {}\n", "scenario", width, "figure",
             "baseline", "current", "delta", "verdict");
  for (const auto& row : comparison.rows) {
    const auto what = row.unit.empty() ? row.what : fmt::format("{} ({})", row.what, row.unit);
    std::string verdict = row.regressed ? "REGRESSED" : "ok";
    if (!row.note.empty()) verdict += fmt::format(" ({})", row.note);
    fmt::print(out, "{:<{}}  {:<16} {:>10} {:>10} {:>11}  {}\n", row.scenario, width, what,
               row.baseline, row.current, row.delta, verdict);
  }
  std::size_t regressions = 0;
  for (const auto& row : comparison.rows) regressions += row.regressed;
  fmt::print(out, "\n{}\n",
             comparison.regressed
                 ? fmt::format("{} regression(s) against the baseline", regressions)
                 : std::string("no regression against the baseline"));
}

}  // namespace loiter::reports
