// The end of every run: summary, run directory reports, --json, --junit, exit code.
#include "finish.hpp"

#include <unistd.h>

#include <iostream>

#include "loiter/reports/rendered.hpp"
#include "loiter/reports/console.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/suites/runner/interrupt.hpp"

namespace loiter::cli {

int exit_code(const reports::RunReport& report) {
  int code = kPassed;
  for (const auto& scenario : report.scenarios) {
    if (scenario.status == reports::Status::error) return kInfrastructure;
    if (scenario.status == reports::Status::fail) code = kFailed;
  }
  return code;
}

int finish_run(const reports::RunReport& report, const suites::RunDirectory& directory,
               const ExtraOutputs& extra) {
  reports::render_console(report, std::cout, {.color = ::isatty(STDOUT_FILENO) == 1});
  std::cout.flush();
  const int verdict = suites::interrupted() ? kInterrupted : exit_code(report);
  bool written = true;
  // Each write on its own: a failed --json does not keep the run directory's report away.
  const auto attempt = [&](const auto& write) {
    try {
      write();
    } catch (const std::exception& e) {
      std::cerr << "loiter: " << e.what() << "\n";
      written = false;
    }
  };
  attempt([&] { directory.write_report(report); });
  if (!extra.json.empty()) {
    attempt([&] { suites::write_file(extra.json, reports::run_report_text(report)); });
  }
  if (!extra.junit.empty()) {
    attempt([&] {
      const std::vector<reports::MatrixRun> runs{{report, directory.path()}};
      suites::write_file(extra.junit, reports::rendered(runs, reports::Format::junit));
    });
  }
  std::cerr << "run directory: " << directory.path().string() << "\n";
  // The verdict stands; only a pass whose document could not be written becomes an error.
  return !written && verdict == kPassed ? kInfrastructure : verdict;
}

}  // namespace loiter::cli
