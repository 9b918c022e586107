// What every run of the command line ends with: the console summary, the run directory's
// report.json, report.html and provenance.json, --json if asked, and the exit code.
#pragma once

#include <string>

#include "exit_codes.hpp"
#include "loiter/reports/run_report.hpp"
#include "loiter/suites/document/run_directory.hpp"

namespace loiter::cli {

// 0 all passed or skipped, 1 a scenario failed, 3 a scenario could not be run.
int exit_code(const reports::RunReport& report);

// Copies of the run's document asked for on the command line; an empty path: none.
struct ExtraOutputs {
  std::string json;   // --json: report.json again
  std::string junit;  // --junit: JUnit XML
};

// Prints the summary on stdout (colours on a terminal), writes the run directory's reports
// (and each extra output asked for), names the directory on stderr; returns the exit code
// (130 when the user interrupted the run). A write that fails is named on stderr and does
// not hide the verdict: 1 and 130 stay; a pass becomes 3 (its document is missing).
int finish_run(const reports::RunReport& report, const suites::RunDirectory& directory,
               const ExtraOutputs& extra);

}  // namespace loiter::cli
