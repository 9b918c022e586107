// `loiter report RUN_DIR` renders a stored run again (console summary and report.html)
// without running anything; `loiter report --matrix DIR...` renders the matrix of stored
// runs (Markdown on stdout, matrix.html); `loiter compare BASELINE CURRENT` gates a run against a
// baseline run, or a survey against a baseline survey.
#pragma once

#include <CLI/App.hpp>
#include <string>
#include <vector>

#include "loiter/reports/compare.hpp"

namespace loiter::cli {

struct ReportOptions {
  std::string run;                  // a run directory or a report.json
  std::vector<std::string> matrix;  // or: run directories, or matrix directories holding them
  std::string html;   // default: report.html next to the report.json; ./matrix.html for --matrix
  std::string junit;  // also JUnit XML here; empty: none
};

struct CompareOptions {
  std::string baseline;  // a run directory or a report.json; or a survey (directory, survey.json)
  std::string current;
  reports::Thresholds thresholds;
  bool require_same_target = false;  // runs of different targets: exit 2, not a warning
};

void add_report_options(CLI::App& command, ReportOptions& options);
void add_compare_options(CLI::App& command, CompareOptions& options);

// Exit codes: 0 rendered, 2 the report cannot be read.
int run_report(const ReportOptions& options);
// Exit codes: 0 no regression, 1 a regression, 2 a report cannot be read, the runs share no
// scenario, or (--require-same-target) they are of different targets. A different target or
// loiter version is a warning on stderr and above the table. Two surveys (a directory with
// survey.json, or a .json of schema loiter-survey/...) are compared as surveys, with the same
// codes; a survey against a run is refused (2).
int run_compare(const CompareOptions& options);

}  // namespace loiter::cli
