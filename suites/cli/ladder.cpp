// `loiter ladder`: chooses the targets, runs suites/ladder, and shows and stores the ladder.
#include "ladder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <sstream>

#include "exit_codes.hpp"
#include "loiter/reports/rendered.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/ladder/ladder_run.hpp"
#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

// The most trials a step, the longest trial (s), the highest rate and pool.
constexpr std::size_t kMostLadderTrials = 100;
constexpr double kMostTrialSeconds = 3600;
constexpr double kMostLadderRate = 10'000'000;
constexpr double kMostPool = 20'000;
// A rate step's p99 bound when the target promises none (as idle-under-load's).
constexpr double kLadderP99Ms = 200;

std::optional<double> number_of(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

fixtures::Target chosen(const std::string& name, const std::vector<std::string>& settings,
                        const std::vector<std::string>& faults) {
  auto target = suites::choose_target({.name = name, .settings = settings, .faults = faults});
  if (fixtures::connect_only(target)) {
    throw std::invalid_argument(target.source +
                                " has no command: a ladder starts a fresh server for every trial");
  }
  return target;
}

}  // namespace

std::vector<suites::ladder::LadderSideSpec> ladder_sides(const LadderOptions& options) {
  const bool comparison = !options.baseline.empty() || !options.candidate.empty();
  if (!comparison) {
    for (const auto& [given, name] :
         {std::pair{!options.baseline_settings.empty(), "--baseline-set"},
          std::pair{!options.baseline_faults.empty(), "--baseline-fault"},
          std::pair{!options.candidate_settings.empty(), "--candidate-set"},
          std::pair{!options.candidate_faults.empty(), "--candidate-fault"}}) {
      if (given) throw std::invalid_argument(fmt::format("{} goes with --baseline and --candidate", name));
    }
    return {{.role = "target",
             .target = chosen(options.target.empty() ? "reference" : options.target,
                              options.settings, options.faults)}};
  }
  if (options.baseline.empty() || options.candidate.empty()) {
    throw std::invalid_argument("a comparison needs both --baseline and --candidate");
  }
  if (!options.target.empty() || !options.settings.empty() || !options.faults.empty()) {
    throw std::invalid_argument(
        "--target, --set and --fault are a ladder's; a comparison takes --baseline-set, "
        "--baseline-fault, --candidate-set and --candidate-fault");
  }
  auto baseline = chosen(options.baseline, options.baseline_settings, options.baseline_faults);
  auto candidate = chosen(options.candidate, options.candidate_settings, options.candidate_faults);
  if (baseline.h2.has_value() != candidate.h2.has_value() ||
      baseline.tls.has_value() != candidate.tls.has_value()) {
    throw std::invalid_argument(fmt::format(
        "{} and {} speak different protocols: a comparison pairs the same traffic on both",
        baseline.name, candidate.name));
  }
  // One target with settings of its own on a side: named with them, as a fault is
  // ("nginx [deadlines.header=60]"), so the two sides read apart.
  const auto with_settings = [](fixtures::Target& target, const std::vector<std::string>& set) {
    if (!set.empty()) target.name += fmt::format(" [{}]", fmt::join(set, ", "));
  };
  with_settings(baseline, options.baseline_settings);
  with_settings(candidate, options.candidate_settings);
  return {{.role = "baseline", .target = std::move(baseline)},
          {.role = "candidate", .target = std::move(candidate)}};
}

suites::RunDirectory run_directory_for(const LadderOptions& options,
                                       const std::vector<suites::ladder::LadderSideSpec>& sides,
                                       std::string_view what) {
  for (const auto& [option, path] :
       {std::pair{"--json", options.json_path}, std::pair{"--junit", options.junit_path}}) {
    if (auto problem = output_path_problem(option, path)) throw std::invalid_argument(*problem);
  }
  const auto name = sides.size() == 2 ? std::string("compare") : sides.front().target.name;
  return suites::RunDirectory(options.runs_root, fmt::format("{}-{}", name, what));
}

double tolerance_from(const std::string& text) {
  std::string_view view = text;
  const bool percent = view.ends_with('%');
  if (percent) view.remove_suffix(1);
  const auto value = number_of(view);
  const double fraction = value ? (percent ? *value / 100 : *value) : -1;
  if (!value || fraction < 0 || fraction >= 1) {
    throw std::invalid_argument(fmt::format(
        "--tolerance: '{}' is not a share such as 5% or 0.05 (at least 0, under 100%)", text));
  }
  return fraction;
}

std::vector<double> step_list(const std::string& option, const std::string& text, bool whole) {
  std::vector<double> steps;
  if (text == "none") return steps;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    const auto value = number_of(item);
    const double most = whole ? kMostPool : kMostLadderRate;
    if (!value || *value <= 0 || *value > most || (whole && std::floor(*value) != *value)) {
      throw std::invalid_argument(fmt::format(
          "{}: '{}' is not a {} up to {} (a list: 1000,2000; or none)", option, item,
          whole ? "whole number of connections" : "positive rate", most));
    }
    steps.push_back(*value);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return steps;
}

void add_ladder_options(CLI::App& command, LadderOptions& options) {
  command.add_option("--target", options.target,
                     "the server to measure: a bundled target or a target file (default reference)");
  command.add_option("--set", options.settings, "with --target: table.key=value (repeatable)");
  command.add_option("--fault", options.faults,
                     "with --target: a reference server fault switch to plant (repeatable)");
  command.add_option("--baseline", options.baseline,
                     "compare: the build as it was (a target or target file)");
  command.add_option("--candidate", options.candidate,
                     "compare: the build to release (a target or target file)");
  command.add_option("--baseline-set", options.baseline_settings,
                     "table.key=value for the baseline only (repeatable)");
  command.add_option("--candidate-set", options.candidate_settings,
                     "table.key=value for the candidate only (repeatable)");
  command.add_option("--baseline-fault", options.baseline_faults,
                     "a reference server fault switch for the baseline only (repeatable)");
  command.add_option("--candidate-fault", options.candidate_faults,
                     "a reference server fault switch for the candidate only (repeatable)");
  command.add_option("--rates", options.rates,
                     "the open-loop steps, requests/s, comma-separated, or none")
      ->capture_default_str();
  command.add_option("--saturation", options.saturation,
                     "the closed-loop steps, connection counts, comma-separated, or none")
      ->capture_default_str();
  command.add_option("--connections", options.connections,
                     "a rate step's keep-alive pool (default 64; with --held the regular "
                     "traffic's, default 16)")
      ->check(CLI::Range(std::size_t{1}, static_cast<std::size_t>(kMostPool)));
  command.add_option("--trials", options.trials,
                     "trials a step, each on a fresh server (default 3; a comparison: 6 pairs)")
      ->check(CLI::Range(std::size_t{1}, kMostLadderTrials));
  command.add_option("--duration", options.duration,
                     "each trial's schedule, s (default 8; with --held each step's regular "
                     "traffic, default 5)")
      ->check(positive_number(kMostTrialSeconds));
  command.add_option("--p99", options.p99_ms,
                     "a rate step's p99 bound, ms (default: the target's load_p99, or 200)")
      ->check(positive_number(3'600'000));
  command.add_option("--tolerance", options.tolerance,
                     "compare: how much worse a figure may get before it fails (5% or 0.05)")
      ->capture_default_str();
  command.add_flag("--no-pin", options.no_pin,
                   "leave the server and the load thread where the kernel puts them (default: "
                   "the server on the lower half of the CPUs, loiter's load on the upper)");
  command.add_option("--runs", options.runs_root, "where the run directory is made")
      ->capture_default_str();
  command.add_option("--held", options.held,
                     "the denial ladder: stalled connections held at each step, rising "
                     "(100,1000,10000); with it --rates and --saturation are not run");
  command.add_option("--kinds", options.kinds,
                     "with --held: the kinds of stall to hold (comma-separated; default: the "
                     "protocol's: silent, partial-header, header-trickle, header-lines, "
                     "partial-body, body-trickle, slow-reader, idle-keepalive; over h2 "
                     "h2-headers-no-end, h2-zero-window, h2-idle; over h3 h3-headers-stall, "
                     "h3-headers-trickle, h3-zero-window)")
      ->delimiter(',');
  command.add_option("--rate", options.rate, "with --held: the regular traffic, requests/s")
      ->capture_default_str()
      ->check(positive_number(kMostLadderRate));
  command.add_option("--least-2xx", options.least_2xx,
                     "with --held: a step whose regular traffic had a smaller share of 2xx "
                     "answers is denied (99% or 0.99)")
      ->capture_default_str();
  command.add_option("--ramp", options.ramp,
                     "with --held: held connections opened a second at each step's start")
      ->capture_default_str()
      ->check(positive_number(1'000'000));
  command.add_option("--json", options.json_path, "also write ladder.json here");
  command.add_option("--junit", options.junit_path, "also write JUnit XML here");
  command.footer(
      "Every trial starts the server afresh, warms it up, and sends regular traffic (GETs of\n"
      "the target's health path; HTTP/2 streams on an [h2] target) from a loopback source of\n"
      "its own. A rate step is an open loop: latency runs from each request's intended send\n"
      "time. A saturation step is a closed loop on a fixed number of connections. The knee is\n"
      "the highest rate that, with every rate below it, had everything answered 2xx within the\n"
      "p99 bound. A step where loiter's own load thread wanted a CPU all along ran out on the\n"
      "client's side, not the server's, and says so with the rate it could dispatch.\n"
      "\nA comparison runs each step's trials alternately (baseline, candidate, candidate,\n"
      "baseline, ...) and pairs them: for saturation requests/s, each step's p99 and the\n"
      "server's CPU per request it gives every pair's change, the median change and its\n"
      "sign-test interval; the candidate is worse (exit 1) only when the median change is\n"
      "beyond the tolerance and the whole interval is on the worse side.\n"
      "\nWith --held, the denial ladder: for each kind of stall, the number of stalled\n"
      "connections held at once is stepped up, each step on a fresh server, while regular\n"
      "traffic runs at --rate beside them. A connection the server closes is reopened, as an\n"
      "attacker would, and the reopens counted. A kind's knee is its first step where the\n"
      "regular traffic's 2xx share fell under --least-2xx or its p99 passed the bound; with\n"
      "--baseline and --candidate, exit 1 when a kind's knee is lower on the candidate.\n"
      "\nExamples:\n"
      "  loiter ladder --target nginx                          # the knee, and saturation\n"
      "  loiter ladder --target nginx-h2c --rates 5000,20000,80000 --saturation none\n"
      "  loiter ladder --baseline reference --candidate reference \\\n"
      "    --candidate-fault slow-under-load --rates none --saturation 64   # exit 1\n"
      "  loiter ladder --baseline nginx --baseline-set deadlines.header=60 \\\n"
      "    --candidate nginx --rates 5000,20000 --saturation 64  # 2 s header deadline: a cost?\n"
      "  loiter ladder --baseline ./old.toml --candidate ./new.toml --junit ladder.xml\n"
      "  loiter ladder --target nginx --held 100,1000,10000     # the denial knee per kind\n"
      "  loiter ladder --target apache --held 10,30,100 --kinds silent,header-trickle\n"
      "  loiter ladder --baseline nginx --candidate ./nginx-768.toml --held 500,2000 \\\n"
      "    --kinds header-trickle                              # exit 1: denied sooner");
}

int run_ladder_command(const LadderOptions& options) {
  if (!options.held.empty()) return run_denial_command(options);
  suites::ladder::LadderRequest request;
  std::optional<suites::RunDirectory> directory;
  refusing([&] {
    request.sides = ladder_sides(options);
    request.rates = step_list("--rates", options.rates, false);
    for (const double count : step_list("--saturation", options.saturation, true)) {
      request.saturation.push_back(static_cast<std::size_t>(count));
    }
    if (request.rates.empty() && request.saturation.empty()) {
      throw std::invalid_argument("--rates none and --saturation none leave nothing to run");
    }
    request.tolerance = tolerance_from(options.tolerance);
    directory.emplace(run_directory_for(options, request.sides, "ladder"));
  });
  const bool comparison = request.sides.size() == 2;
  request.connections = options.connections != 0 ? options.connections : 64;
  request.trials = options.trials != 0 ? options.trials : (comparison ? 6 : 3);
  request.duration = seconds_given(options.duration > 0 ? options.duration : 8);
  set_run_fields(request, options, kLadderP99Ms);
  const auto ladder = suites::ladder::run_ladder(request);
  reports::render_console(ladder, std::cout);
  const auto json = reports::ladder_text(ladder);
  suites::write_file(directory->path() / "ladder.json", json);
  suites::write_file(directory->path() / "ladder.html",
                     reports::rendered(ladder, reports::Format::html));
  if (!options.json_path.empty()) suites::write_file(options.json_path, json);
  if (!options.junit_path.empty()) {
    suites::write_file(options.junit_path, reports::rendered(ladder, reports::Format::junit));
  }
  std::cout << fmt::format("run directory: {}\n", directory->path().string());
  if (ladder.interrupted) return kInterrupted;
  return reports::candidate_worse(ladder) ? kFailed : kPassed;
}

}  // namespace loiter::cli
