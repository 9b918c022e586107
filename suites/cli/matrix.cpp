// `loiter matrix`: every installed bundled target (or the ones named) through the chosen
// scenarios, one fresh server per scenario as in `loiter check`; a run directory per server
// inside the matrix's own (a server not installed leaves one too, with why), then the table
// rendered from those run documents alone, printed and saved there.
#include "matrix.hpp"

#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "finish.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/target/target_file.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/document/run_head.hpp"
#include "loiter/suites/document/run_plan.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "loiter/suites/runner/target_install.hpp"
#include "matrix_render.hpp"
#include "progress.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

namespace fs = std::filesystem;

// The bundled targets in the order of the table: the known-good reference first, the
// known-vulnerable baseline last; any other bundled target before it.
std::vector<std::string> default_targets() {
  const std::vector<std::string> order{"reference", "nginx", "apache", "lighttpd", "h2o",
                                       "haproxy",   "caddy", "node",   "go"};
  const auto bundled = fixtures::bundled_target_names();
  std::vector<std::string> names;
  for (const auto& name : order) {
    if (std::ranges::find(bundled, name) != bundled.end()) names.push_back(name);
  }
  for (const auto& name : bundled) {
    if (std::ranges::find(names, name) == names.end() && name != "python") names.push_back(name);
  }
  if (std::ranges::find(bundled, "python") != bundled.end()) names.emplace_back("python");
  return names;
}

// The run directory of the table's `row`th server: its name sorts in the table's order.
suites::RunDirectory row_directory(const fs::path& matrix_dir, std::size_t row,
                                   const fixtures::Target& target) {
  return suites::RunDirectory(matrix_dir, fmt::format("{:02}-{}", row + 1, target.name));
}

// The run document's head, with the version the server's version command printed (taken
// before the start).
reports::RunReport target_report(const fixtures::Target& target, std::string version) {
  auto report = suites::run_head(LOITER_VERSION, target, suites::utc_now());
  report.target_version = std::move(version);
  return report;
}

void run_target(const fixtures::Target& target, suites::RunDirectory& directory,
                const std::vector<const suites::Scenario*>& scenarios, const suites::Timing& timing,
                const MatrixOptions& options, Progress& progress) {
  auto report = target_report(target, suites::target_version(target));
  const suites::RunPlan plan{.target = target,
                             .scenarios = scenarios,
                             .timing = timing,
                             .parameters = {.count = options.count}};  // the rest: defaults
  suites::run_plan(plan, directory, report, progress.of(plan));
  directory.write_report(report);
}

// A server that is not installed still has its row: a run document that says why.
void record_not_installed(const fixtures::Target& target, const std::string& program,
                          suites::RunDirectory& directory) {
  std::cerr << fmt::format("{}: skipped, {} is not installed\n", target.name, program);
  auto report = target_report(target, "not installed");
  report.not_run = fmt::format("{} is not installed", program);
  directory.write_report(report);
}

}  // namespace

void add_matrix_options(CLI::App& command, MatrixOptions& options) {
  command
      .add_option("--targets", options.targets,
                  "bundled targets or target files, comma-separated (default: every bundled "
                  "target whose server is installed)")
      ->delimiter(',');
  command.add_option("--scenario", options.scenarios,
                     "scenario id (repeatable; default: the catalogue without idle-under-load)");
  command
      .add_option("--count", options.count,
                  "connections per scenario (default: its own). At most 19000 (one client "
                  "process's descriptors); held-capacity takes up to 100000: counts beyond one "
                  "process are split over client processes")
      ->check(CLI::Range(std::size_t{1}, suites::kSplitCount));
  command.add_option("--runs", options.runs_root, "where the matrix's run directory is made")
      ->capture_default_str();
  command.add_option("--junit", options.junit_path,
                     "also write a JUnit XML report here: a testsuite per server, a testcase per "
                     "scenario, each server's run directory as a property");
}

int run_matrix(const MatrixOptions& options) {
  std::vector<fixtures::Target> targets;
  std::vector<const suites::Scenario*> scenarios;
  suites::Timing timing;
  std::optional<suites::RunDirectory> made;
  // Every input, before any server starts (exit 2); a --runs that cannot be made too.
  refusing([&] {
    for (const auto& name : options.targets.empty() ? default_targets() : options.targets) {
      targets.push_back(suites::resolve_target(name));
    }
    // Without ids: every scenario but the load family (25 s of traffic per server).
    scenarios = suites::choose_scenarios(options.scenarios, options.count, /*without_load=*/true);
    timing = suites::timing();
    if (auto problem = output_path_problem("--junit", options.junit_path)) {
      throw Refusal(*problem);
    }
    made.emplace(options.runs_root, "matrix");
  });
  const auto& directory = *made;
  suites::install_interrupt_handlers();
  std::size_t runnable = 0;
  for (const auto& target : targets) {
    runnable += suites::missing_program(target) ? 0 : scenarios.size();
  }
  Progress progress(runnable);
  std::size_t row = 0;
  for (; row < targets.size() && !suites::interrupted(); ++row) {
    const auto& target = targets[row];
    auto server = row_directory(directory.path(), row, target);
    if (const auto program = suites::missing_program(target)) {
      record_not_installed(target, *program, server);
    } else {
      run_target(target, server, scenarios, timing, options, progress);
    }
  }
  if (row == 0) return kInterrupted;  // before the first server: no table to make
  // The table from the run documents just written, as `loiter report --matrix` renders it.
  const auto runs = matrix_run_directories({directory.path()});
  const auto markdown = render_matrix(runs, directory.path() / "matrix.html");
  suites::write_file(directory.path() / "matrix.md", markdown);
  if (!options.junit_path.empty()) suites::write_file(options.junit_path, matrix_junit(runs));
  std::cout << markdown << std::flush;
  std::cerr << "run directory: " << directory.path().string() << "\n";
  return suites::interrupted() ? kInterrupted : kPassed;
}

}  // namespace loiter::cli
