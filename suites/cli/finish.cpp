// The end of every run: summary, run directory reports, --json, exit code.
#include "finish.hpp"

#include <unistd.h>

#include <iostream>

#include "loiter/reports/console.hpp"
#include "loiter/reports/json.hpp"
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
               const std::string& json_path) {
  reports::render_console(report, std::cout, {.color = ::isatty(STDOUT_FILENO) == 1});
  std::cout.flush();
  try {
    directory.write_report(report);
    if (!json_path.empty()) suites::write_file(json_path, reports::run_report_text(report));
  } catch (const std::exception& e) {
    std::cerr << "loiter: " << e.what() << "\n";
    return kInfrastructure;
  }
  std::cerr << "run directory: " << directory.path().string() << "\n";
  return suites::interrupted() ? kInterrupted : exit_code(report);
}

}  // namespace loiter::cli
