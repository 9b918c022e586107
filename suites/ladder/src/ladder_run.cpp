#include "loiter/suites/ladder/ladder_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/ladder/conclude.hpp"
#include "trial.hpp"

namespace loiter::suites::ladder {

namespace {

using Clock = std::chrono::steady_clock;
using reports::StepKind;

}  // namespace

std::string protocol_of(const fixtures::Target& target) {
  if (target.h3) return "h3";
  if (target.h2) return target.tls ? "h2" : "h2c";
  return target.tls ? "tls" : "http1";
}

namespace {

// The steps every side runs, in order: the rates as given, then the connection counts.
std::vector<reports::LadderStep> planned_steps(const LadderRequest& request) {
  std::vector<reports::LadderStep> steps;
  for (const double rate : request.rates) {
    steps.push_back({.kind = StepKind::rate, .rate = rate, .connections = request.connections});
  }
  for (const auto count : request.saturation) {
    steps.push_back({.kind = StepKind::saturation, .connections = count});
  }
  return steps;
}

void check_request(const LadderRequest& request) {
  if (request.sides.empty() || request.sides.size() > 2) {
    throw std::invalid_argument("a ladder runs against one target, or a baseline and a candidate");
  }
  if (request.rates.empty() && request.saturation.empty()) {
    throw std::invalid_argument("nothing to run: no rate steps and no saturation steps");
  }
  if (request.trials == 0) throw std::invalid_argument("at least one trial per step");
  for (const auto& side : request.sides) {
    if (!side.target.paths.health) {
      throw std::invalid_argument(fmt::format(
          "{} offers no health path: the regular traffic needs a path answering 200", side.target.name));
    }
  }
}

bool stop_asked(const LadderRequest& request) { return request.cancelled && request.cancelled(); }

}  // namespace

reports::Ladder run_ladder(const LadderRequest& request) {
  check_request(request);
  const auto began = Clock::now();
  const auto pinning = pinning_for(request.pin);
  reports::Ladder ladder{
      .loiter_version = request.loiter_version,
      .started = request.started,
      .trial_seconds = std::chrono::duration<double>(request.duration).count(),
      .trials = request.trials,
      .p99_bound_ms = std::chrono::duration<double, std::milli>(request.p99_bound).count(),
      .tolerance = request.sides.size() == 2 ? request.tolerance : 0,
      .pinning = pinning.text,
      .server_cpus = pinning.server,
      .client_cpus = pinning.client};
  // Each side's target as started: pinned to the server's CPUs unless it pins itself.
  std::vector<fixtures::Target> targets;
  for (const auto& side : request.sides) {
    auto target = side.target;
    if (target.cpus.empty()) target.cpus = pinning.server;
    targets.push_back(std::move(target));
    ladder.sides.push_back({.role = side.role,
                            .target = side.target.name,
                            .protocol = protocol_of(side.target),
                            .steps = planned_steps(request)});
  }
  if (!pinning.server.empty() &&
      std::ranges::any_of(request.sides, [](const auto& s) { return !s.target.cpus.empty(); })) {
    ladder.pinning += "; a target that names its own cpus keeps them";
  }
  // A ladder alone: each step's trials in a row. A comparison: pair by pair, ABBA...
  const auto order = request.sides.size() == 2 ? abba_order(request.trials)
                                               : std::vector<std::size_t>(request.trials, 0);
  const auto step_count = ladder.sides.front().steps.size();
  const auto total = step_count * order.size();
  std::size_t run = 0;
  for (std::size_t s = 0; s < step_count && !ladder.interrupted; ++s) {
    for (const auto side_index : order) {
      if (stop_asked(request)) {
        ladder.interrupted = true;
        break;
      }
      auto& side = ladder.sides[side_index];
      auto& step = side.steps[s];
      if (request.told) {
        request.told(fmt::format("trial {}/{}: {} {}, {} trial {}", run + 1, total, side.target,
                                 step_label(step), side.role, step.trials.size() + 1));
      }
      TrialOutcome outcome;
      try {
        outcome = run_trial({.target = &targets[side_index],
                             .kind = step.kind,
                             .rate = step.rate,
                             .connections = step.connections,
                             .duration = request.duration,
                             .run = run,
                             .client_cpus = pinning.client,
                             .want_provenance = side.command.empty(),  // its first trial
                             .cancelled = request.cancelled});
      } catch (const fixtures::StartError& error) {
        // The user's Ctrl-C while a trial's server was starting: what ran is kept.
        if (error.problem() != fixtures::StartProblem::cancelled) throw;
        ladder.interrupted = true;
        break;
      }
      ++run;
      if (outcome.provenance) {
        side.server_binary = outcome.provenance->server_binary.string();
        side.server_sha256 = outcome.provenance->server_sha256;
        side.command = outcome.provenance->command;
      }
      if (outcome.stopped) {  // a trial cut short is not a trial: left out
        ladder.interrupted = true;
        break;
      }
      step.trials.push_back(std::move(outcome.trial));
    }
  }
  for (auto& side : ladder.sides) conclude_side(side, ladder.p99_bound_ms);
  ladder.comparison = compare_sides(ladder);
  ladder.duration = std::chrono::duration<double>(Clock::now() - began).count();
  return ladder;
}

}  // namespace loiter::suites::ladder
