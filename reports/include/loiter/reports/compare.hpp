// The regression gate: a current run against a baseline run, scenario by scenario. A pure
// function of two run documents; the thresholds say how much worse a figure may get, and a
// finding (by code) the baseline did not have is a regression.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

struct Thresholds {
  double closure_max_plus_s = 0.5;  // closure max may grow by this much
  double p99_factor = 1.5;          // p99 may grow to max(baseline × factor, baseline + plus)
  double p99_plus_ms = 5.0;
  double fds_after_plus = 0;     // FDs left above baseline after recovery may grow by this much
  double rss_peak_factor = 1.5;  // RSS peak may grow to baseline × factor
};

// One compared figure (or the verdict, or a finding) of one scenario.
struct ComparisonRow {
  std::string scenario;
  // "verdict", "closure max", "p99", "FDs left", "RSS peak", "finding closed-late" (a code,
  // with the client kind in a mix: "finding still-open (silent)")
  std::string what;
  std::string unit;
  std::string baseline;  // as shown: "pass", "1.002", "found", "-"
  std::string current;
  std::string delta;  // "+0.500", "pass→fail", "appeared", "gone", ""
  bool regressed = false;
  std::string note;  // "limit 1.502 s", "not in the current run", "appeared: <its text>"
};

struct Comparison {
  std::string baseline_run;  // "0.1.0 against reference (2026-12-01T02:00:00Z)"
  std::string current_run;
  std::vector<ComparisonRow> rows;
  bool regressed = false;  // any row regressed
  // Scenarios both runs hold: with none, there is nothing to gate on.
  std::size_t shared_scenarios = 0;
  bool same_target = true;
  // What makes the two runs less comparable than they look: "the runs are of different
  // targets: reference (baseline), nginx (current)", and the same for loiter's version.
  std::vector<std::string> warnings;
};

Comparison compare(const RunReport& baseline, const RunReport& current,
                   const Thresholds& thresholds = {});

// The side-by-side table (under any warnings), one row per compared figure, then one line:
// the gate's outcome.
void render_comparison(const Comparison& comparison, std::ostream& out);

}  // namespace loiter::reports
