#include "loiter/suites/runner/run.hpp"

#include <algorithm>

#include "drive.hpp"
#include "explanations.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/fixtures/probe/sampler.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "run_steps.hpp"

namespace loiter::suites {

namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

// The target's own readiness deadline (scaled like every wait of loiter's); the user's
// Ctrl-C gives the start up at once.
fixtures::StartOptions start_options(const fixtures::Target& target, const Timing& timing,
                                     const ScenarioParameters& parameters) {
  return {.ready_timeout = duration_cast<milliseconds>(target.readiness.timeout * timing.scale),
          .stop_grace = duration_cast<milliseconds>(timing.stop_grace),
          .log_dir = parameters.server_dir,
          .cancelled = [] { return interrupted(); }};
}

}  // namespace

ScenarioParameters resolve_parameters(const Scenario& scenario, const ScenarioParameters& asked) {
  ScenarioParameters resolved = scenario.load_defaults;
  resolved.count = asked.count != 0 ? asked.count : scenario.default_count;
  if (asked.load_rate > 0) resolved.load_rate = asked.load_rate;
  if (asked.load_duration > Duration{}) resolved.load_duration = asked.load_duration;
  if (asked.load_connections != 0) resolved.load_connections = asked.load_connections;
  if (asked.churn) resolved.churn = asked.churn;
  resolved.server_dir = asked.server_dir;
  resolved.connections_per_process = asked.connections_per_process;
  return resolved;
}

std::optional<Duration> longest_run(const Scenario& scenario, const fixtures::Target& target,
                                    const Timing& timing, const ScenarioParameters& asked) {
  if (scenario.unmet_need(target)) return std::nullopt;
  const auto parameters = resolve_parameters(scenario, asked);
  const auto expected = scenario.expect(target, timing, parameters);
  const auto clients = expected.load ? std::max(expected.patience,
                                                parameters.load_duration + std::chrono::seconds(2))
                                     : expected.patience;
  return clients + expected.recovery;
}

ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters) {
  ScenarioParameters resolved;
  auto result = begin_result(scenario, target, timing, parameters, resolved);
  if (result.skipped) return result;
  std::optional<fixtures::ServerUnderTest> started;
  try {
    started.emplace(target, start_options(target, timing, parameters));
  } catch (const fixtures::StartError& e) {
    if (e.problem() != fixtures::StartProblem::cancelled) throw;
    result.interrupted = true;  // Ctrl-C while the server was starting: not its failure
    return result;
  }
  auto& sut = *started;
  // The process tree, and TCP states on both ends; a soak also counts descriptors by type.
  const fixtures::Probe probe =
      result.expectations.soak ? sut.probe().with_fd_types() : sut.probe();
  auto& fds = result.observation.fds;
  settle_into(probe, timing, result.observation);
  add_provenance(result, fixtures::gather_provenance(sut));
  OpenWatch watch(probe, snapshot_due(clients::Clock::now(), result.expectations.patience));
  {
    // The client processes, if any, are forked before the sampler's thread starts (drive.hpp).
    Drive clients(scenario, sut, result.expectations, timing, resolved);
    fixtures::Sampler sampler(probe, sample_period(result.expectations));
    clients.run(result.observation, watch);
    if (interrupted()) {
      if (!scenario.winds_down || !result.observation.load) {
        result.interrupted = true;
        return result;  // the server is stopped on the way out; nothing is judged
      }
      result.stopped_early = true;  // judged on what ran
    }
    recover_into(probe, timing, result.expectations, fds);
    result.observation.timeline = sampler.stop();
  }
  auto late_fds = late_fds_look(probe, timing, result.expectations, fds);
  add_peaks(result.observation);
  result.observation.scenario = result.id;
  result.observation.server_exit = sut.exit_description();
  sut.stop();  // what of the server still runs once it is stopped is a finding
  for (const auto& leftover : sut.leftovers()) {
    result.observation.leftovers.push_back({.pid = leftover.pid, .command = leftover.command});
  }
  judge_into(result, watch, sut.endpoint(), std::move(late_fds));
  return result;
}

}  // namespace loiter::suites
