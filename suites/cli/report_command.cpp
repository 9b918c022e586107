// `loiter report` and `loiter compare`: stored runs read back, rendered (one run, or the
// matrix of several), compared; a stored survey or ladder rendered again; two surveys
// compared.
#include "report_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "finish.hpp"
#include "loiter/reports/console.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/reports/denial_json.hpp"
#include "loiter/reports/ladder_json.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "loiter/reports/survey_compare.hpp"
#include "loiter/reports/survey_json.hpp"
#include "loiter/reports/rendered.hpp"
#include "loiter/reports/survey_render.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "matrix_render.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace fs = std::filesystem;

void add_report_options(CLI::App& command, ReportOptions& options) {
  command.add_option("RUN", options.run,
                     "a run directory, or its report.json; or a survey's (survey.json) or a "
                     "ladder's (ladder.json, denial.json): each rendered again as its command "
                     "did");
  command.add_option("--matrix", options.matrix,
                     "render the matrix of these stored runs instead: each a server's run "
                     "directory, or a matrix directory holding them (Markdown on stdout)");
  command.add_option("--html", options.html,
                     "where to write the HTML page (default: report.html beside report.json; "
                     "with --matrix, ./matrix.html)");
  command.add_option("--junit", options.junit,
                     "also write JUnit XML here (as check --junit and matrix --junit do)");
  command.footer(
      "Examples:\n"
      "  loiter report loiter-runs/20261201T020000Z-reference        # console + report.html\n"
      "  loiter report --matrix loiter-runs/20261201T030000Z-matrix  # the table + matrix.html\n"
      "  loiter report --matrix runs/A-nginx runs/B-caddy --html /tmp/two.html\n"
      "  loiter report loiter-runs/20261201T020000Z-reference --junit junit.xml\n"
      "  loiter report loiter-runs/20261201T040000Z-nginx-survey     # table + survey.html\n"
      "  loiter report loiter-runs/20261201T050000Z-nginx-ladder     # table + ladder.html");
}

void add_compare_options(CLI::App& command, CompareOptions& options) {
  auto& t = options.thresholds;
  command
      .add_option("BASELINE", options.baseline,
                  "the baseline run directory or report.json; or a survey: its directory or "
                  "survey.json (loiter survey)")
      ->required();
  command
      .add_option("CURRENT", options.current,
                  "the current run directory or report.json; a survey when BASELINE is one")
      ->required();
  command
      .add_option("--closure-max-plus", t.closure_max_plus_s,
                  "closure max may grow by this many seconds")
      ->capture_default_str()
      ->check(non_negative_number());
  command
      .add_option("--p99-factor", t.p99_factor,
                  "p99 may grow to max(baseline × factor, baseline + margin)")
      ->capture_default_str()
      ->check(positive_number());
  command.add_option("--p99-plus-ms", t.p99_plus_ms, "the p99 margin, ms")
      ->capture_default_str()
      ->check(non_negative_number());
  command
      .add_option("--fds-after-plus", t.fds_after_plus,
                  "FDs above baseline after recovery may grow by this many")
      ->capture_default_str()
      ->check(non_negative_number());
  command
      .add_option("--rss-peak-factor", t.rss_peak_factor, "RSS peak may grow to baseline × factor")
      ->capture_default_str()
      ->check(positive_number());
  command.add_flag("--require-same-target", options.require_same_target,
                   "exit 2 when the runs (or surveys) are of different targets (default: a "
                   "warning)");
  command.footer(
      "Two runs: each figure against its threshold above, each finding by code. Two surveys:\n"
      "each measure's deadline, ending, progress and clock; a regression is a deadline grown\n"
      "past the slack (the larger survey's, at least 0.25 s) or gone, progress that now extends\n"
      "a deadline, a 408 lost, a clock that lets a stall last longer (the thresholds above are\n"
      "the runs'). A run against a survey is refused (exit 2).\n"
      "Exit codes: 0 no regression, 1 a regression, 2 a bad input.\n"
      "Examples:\n"
      "  loiter compare ci/loiter/baseline/report.json loiter-runs/20261201T020000Z-reference\n"
      "  loiter compare ci/loiter/baseline/survey.json survey.json   # two surveys");
}

namespace {

// A stored run or matrix that cannot be read or rendered is a bad input (exit 2), as is
// what cannot be written from it.
int report_matrix(const ReportOptions& options) {
  const std::vector<fs::path> named(options.matrix.begin(), options.matrix.end());
  const fs::path html = options.html.empty() ? fs::path("matrix.html") : fs::path(options.html);
  const auto runs = matrix_run_directories(named);
  std::cout << render_matrix(runs, html) << std::flush;
  std::cerr << "wrote " << html.string() << "\n";
  if (!options.junit.empty()) {
    suites::write_file(options.junit, matrix_junit(runs));
    std::cerr << "wrote " << options.junit << "\n";
  }
  return kPassed;
}

// A stored survey or ladder rendered again, as its command rendered it: its console text,
// its page (to --html, else `page` beside the document) and, with --junit, its JUnit; a
// survey judges nothing, so it has none and --junit is refused.
template <class Document>
int report_stored(const ReportOptions& options, const Document& document, std::string_view page) {
  using reports::Format;
  constexpr bool kJudges = requires(std::ostream& out) { reports::render_junit(document, out); };
  if (!kJudges && !options.junit.empty()) {
    throw Refusal("--junit: a survey judges nothing, so it has no test report; give a run");
  }
  std::cout << reports::rendered(document, Format::console);
  const fs::path run(options.run);
  const auto html = !options.html.empty() ? fs::path(options.html)
                                          : (fs::is_directory(run) ? run : run.parent_path()) / page;
  suites::write_file(html, reports::rendered(document, Format::html));
  std::cerr << "wrote " << html.string() << "\n";
  if (kJudges && !options.junit.empty()) {
    suites::write_file(options.junit, reports::rendered(document, Format::junit));
    std::cerr << "wrote " << options.junit << "\n";
  }
  return kPassed;
}

int report_run(const ReportOptions& options) {
  // A survey or a ladder is told from a run by its schema.
  if (reports::is_survey(options.run)) {
    return report_stored(options, reports::read_survey(options.run), "survey.html");
  }
  if (reports::is_ladder(options.run)) {
    return report_stored(options, reports::read_ladder(options.run), "ladder.html");
  }
  if (reports::is_denial(options.run)) {
    return report_stored(options, reports::read_denial(options.run), "denial.html");
  }
  const auto report = reports::read_run_report(options.run);
  reports::render_console(report, std::cout, {.color = ::isatty(STDOUT_FILENO) == 1});
  const fs::path json =
      fs::is_directory(options.run) ? fs::path(options.run) / "report.json" : fs::path(options.run);
  const fs::path html =
      options.html.empty() ? json.parent_path() / "report.html" : fs::path(options.html);
  suites::write_html(html, report);
  std::cerr << "wrote " << html.string() << "\n";
  if (!options.junit.empty()) {
    const std::vector<reports::MatrixRun> runs{{report, fs::absolute(json.parent_path())}};
    suites::write_file(options.junit, reports::rendered(runs, reports::Format::junit));
    std::cerr << "wrote " << options.junit << "\n";
  }
  return kPassed;
}

int compare_surveys(const CompareOptions& options) {
  // read_survey takes survey.json or the run directory that holds it.
  const auto baseline = reports::read_survey(options.baseline);
  const auto current = reports::read_survey(options.current);
  const auto comparison = reports::compare_surveys(baseline, current);
  for (const auto& warning : comparison.warnings)
    std::cerr << "loiter: warning: " << warning << "\n";
  if (comparison.shared_measures == 0) {
    throw Refusal(
        "the surveys share no measure both measured: nothing to compare (a gate that passes on "
        "nothing is no gate)");
  }
  if (options.require_same_target && !comparison.same_target) {
    throw Refusal("--require-same-target: the surveys are of different targets (" +
                  baseline.target + ", " + current.target + ")");
  }
  reports::render_survey_comparison(comparison, std::cout);
  return comparison.regressed ? kFailed : kPassed;
}

int compare(const CompareOptions& options) {
  for (const auto& path : {options.baseline, options.current}) {
    if (reports::is_ladder(path) || reports::is_denial(path)) {
      throw Refusal(fmt::format(
          "{} is a ladder: a ladder compares two builds itself (loiter ladder --baseline FILE "
          "--candidate FILE); compare takes two runs or two surveys",
          path));
    }
  }
  // A survey (survey.json, or a directory holding it) is told from a run by its schema.
  const bool baseline_survey = reports::is_survey(options.baseline);
  const bool current_survey = reports::is_survey(options.current);
  if (baseline_survey && current_survey) return compare_surveys(options);
  if (baseline_survey || current_survey) {
    throw Refusal(fmt::format(
        "compare takes two runs or two surveys, not one of each: {} is a survey (loiter "
        "survey), {} a run (loiter check)",
        baseline_survey ? options.baseline : options.current,
        baseline_survey ? options.current : options.baseline));
  }
  const auto baseline = reports::read_run_report(options.baseline);
  const auto current = reports::read_run_report(options.current);
  const auto comparison = reports::compare(baseline, current, options.thresholds);
  for (const auto& warning : comparison.warnings)
    std::cerr << "loiter: warning: " << warning << "\n";
  if (comparison.shared_scenarios == 0) {
    throw Refusal(
        "the runs share no scenario: nothing to compare (a gate that passes on nothing is no "
        "gate); run the same --scenario in both");
  }
  if (options.require_same_target && !comparison.same_target) {
    throw Refusal("--require-same-target: the runs are of different targets (" + baseline.target +
                  ", " + current.target + ")");
  }
  reports::render_comparison(comparison, std::cout);
  return comparison.regressed ? kFailed : kPassed;
}

}  // namespace

int run_report(const ReportOptions& options) {
  if (options.run.empty() == options.matrix.empty()) {
    throw Refusal("report takes a RUN or --matrix DIR..., one of the two");
  }
  return refusing(
      [&] { return options.matrix.empty() ? report_run(options) : report_matrix(options); });
}

int run_compare(const CompareOptions& options) {
  return refusing([&] { return compare(options); });
}

}  // namespace loiter::cli
