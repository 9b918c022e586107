#include "sample_ladder.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace loiter::reports::testing {

namespace {

// A value as a document would carry it, to a millionth: Boost.JSON 1.81 reads a 17-digit
// double back one unit in the last place off, which a round-trip test would take for a loss.
double tidy(double value) { return std::round(value * 1e6) / 1e6; }

// A trial of `seconds` at `rate` (0: a closed loop at `answered` a second), its figures a
// little apart by `run` so that medians mean something.
LadderTrial trial(std::size_t run, double rate, double dispatched, double answered, double p99,
                  double seconds = 5) {
  const double wobble = 1 + 0.01 * static_cast<double>(run % 3);
  const auto due = static_cast<std::uint64_t>((rate > 0 ? rate : dispatched) * seconds);
  return {.run = run,
          .source = "127.3." + std::to_string(run) + ".2",
          .seconds = seconds,
          .requested = due,
          .dispatched = static_cast<std::uint64_t>(dispatched * seconds),
          .succeeded = static_cast<std::uint64_t>(answered * seconds),
          .p50_ms = tidy(0.25 * p99 * wobble),
          .p99_ms = tidy(p99 * wobble),
          .max_ms = 2 * p99,
          .client_busy = tidy(0.2 + dispatched / 60000),
          .server_busy = tidy(dispatched * 0.000012),
          .server_cpu_s = tidy(dispatched * seconds * 0.000012),
          .server_rss_peak_mib = 5.5,
          .server_fds_before = 11,
          .server_fds_peak = 45};
}

LadderStep rate_step(double rate, std::size_t first_run, std::size_t trials, double dispatched,
                     double p99) {
  LadderStep step{.kind = StepKind::rate, .rate = rate, .connections = 32};
  for (std::size_t k = 0; k < trials; ++k) {
    step.trials.push_back(trial(first_run + k, rate, dispatched, dispatched, p99));
  }
  step.requested_rate = rate;
  step.dispatched_rate = dispatched;
  step.succeeded_rate = dispatched;
  step.p50_ms = 0.25 * p99;
  step.p99_ms = p99;
  step.server_cpu_us_per_request = 12.04;
  step.server_rss_peak_mib = 5.5;
  step.server_fds_peak = 45;
  step.client_busy = tidy(0.2 + dispatched / 60000);
  step.server_busy = tidy(dispatched * 0.000012);
  step.within = dispatched == rate;
  return step;
}

LadderStep saturation_step(std::size_t connections, std::size_t first_run, std::size_t trials,
                           double answered) {
  LadderStep step{.kind = StepKind::saturation, .connections = connections};
  for (std::size_t k = 0; k < trials; ++k) {
    step.trials.push_back(trial(first_run + k, 0, answered, answered, 3.1));
  }
  step.requested_rate = answered;
  step.dispatched_rate = answered;
  step.succeeded_rate = answered;
  step.p50_ms = 0.9;
  step.p99_ms = 3.1;
  step.server_cpu_us_per_request = 11.5;
  step.server_rss_peak_mib = 6.25;
  step.server_fds_peak = 77;
  step.client_busy = 0.99;
  return step;
}

PairedFigure paired(std::string step, std::string figure, std::string unit, bool higher,
                    std::vector<double> baseline, std::vector<double> change,
                    PairedVerdict verdict) {
  PairedFigure f{.step = std::move(step),
                 .figure = std::move(figure),
                 .unit = std::move(unit),
                 .higher_is_better = higher,
                 .baseline = std::move(baseline),
                 .change = std::move(change),
                 .confidence = 0.938,
                 .verdict = verdict};
  for (std::size_t i = 0; i < f.baseline.size(); ++i) {
    f.candidate.push_back(tidy(f.baseline[i] * (1 + f.change[i])));
  }
  const auto middle = [](std::vector<double> values) {
    std::ranges::sort(values);
    return values[values.size() / 2];  // odd counts only, as the samples have
  };
  auto sorted = f.change;
  std::ranges::sort(sorted);
  f.median_change = middle(f.change);
  f.baseline_median = middle(f.baseline);
  f.candidate_median = middle(f.candidate);
  f.low = sorted.front();
  f.high = sorted.back();
  return f;
}

}  // namespace

Ladder sample_ladder() {
  Ladder ladder{.loiter_version = "0.1.0",
                .started = "2026-12-03T11:00:00Z",
                .duration = 95.5,
                .trial_seconds = 5,
                .trials = 3,
                .p99_bound_ms = 200,
                .pinning = "server on CPU 0, client on CPU 1",
                .server_cpus = {0},
                .client_cpus = {1},
                .problems = {"trial 7: the server took 2.1 s to start"}};
  LadderSide side{
      .role = "target",
      .target = "nginx",
      .protocol = "http1",
      .server_binary = "/usr/sbin/nginx",
      .server_sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      .command = {"/usr/sbin/nginx", "-c", "/run/loiter/nginx.conf", "-g", "daemon off;"}};
  side.steps.push_back(rate_step(5000, 0, 3, 5000, 1.2));
  side.steps.push_back(rate_step(20000, 3, 3, 20000, 4.75));
  auto limited = rate_step(50000, 6, 3, 41200, 180);
  limited.limit = Limit::client;
  limited.client_busy = 0.97;
  limited.non_2xx = 3;
  limited.errors = 12;
  limited.trials[1].non_2xx = 3;
  limited.trials[2].errors = 12;
  limited.trials[2].error_kinds = {{"timeout", 9}, {"reset", 3}};
  limited.note = "dispatched 41,200/s of 50,000/s with its load thread busy 97% of a core";
  side.steps.push_back(limited);
  side.steps.push_back(saturation_step(64, 9, 3, 61850.5));
  side.knee = 20000;
  side.knee_note = "50,000/s: client limit: " + limited.note;
  ladder.sides.push_back(side);
  return ladder;
}

Ladder sample_comparison() {
  Ladder ladder{.loiter_version = "0.1.0",
                .started = "2026-12-03T12:00:00Z",
                .duration = 210.25,
                .trial_seconds = 5,
                .trials = 5,
                .p99_bound_ms = 200,
                .tolerance = 0.05,
                .pinning = "1 CPU: not pinned",
                .interrupted = true};
  const std::vector<std::pair<std::string, std::string>> sides{{"baseline", "nginx-1.24"},
                                                               {"candidate", "nginx-1.26"}};
  for (std::size_t i = 0; i < sides.size(); ++i) {
    LadderSide side{.role = sides[i].first,
                    .target = sides[i].second,
                    .protocol = "h2c",
                    .server_binary = "/opt/" + sides[i].second + "/sbin/nginx",
                    .server_sha256 = i == 0 ? "aa11" : "bb22"};
    // Trials ABBA: the baseline's run numbers 0, 3, 4, 7, 8; the candidate's 1, 2, 5, 6, 9.
    side.steps.push_back(rate_step(5000, i, 5, 5000, i == 0 ? 1.5 : 1.9));
    side.steps.push_back(saturation_step(64, 10 + i, 5, i == 0 ? 50000 : 54000));
    side.knee = 5000;
    ladder.sides.push_back(side);
  }
  ladder.comparison.push_back(paired("5000/s", "p99", "ms", false, {1.5, 1.4, 1.6, 1.5, 1.55},
                                     {0.21, 0.183, 0.255, 0.30, 0.152}, PairedVerdict::worse));
  ladder.comparison.push_back(paired("5000/s", "server CPU/request", "µs", false,
                                     {12, 12.1, 11.9, 12, 12.2}, {-0.01, 0.02, 0.005, -0.03, 0.01},
                                     PairedVerdict::no_difference));
  ladder.comparison.push_back(paired("64 connections", "requests/s", "/s", true,
                                     {50000, 49800, 50100, 50050, 49900},
                                     {0.08, 0.075, 0.09, 0.07, 0.085}, PairedVerdict::better));
  auto held = paired("64 connections", "p99", "ms", false, {3.1, 3.0, 3.2, 3.1, 3.15},
                     {0.02, 0.01, 0.03, 0.015, 0.025}, PairedVerdict::within_tolerance);
  held.note = "changes below 0.1 ms are below the timer's resolution";
  ladder.comparison.push_back(held);
  return ladder;
}

}  // namespace loiter::reports::testing
