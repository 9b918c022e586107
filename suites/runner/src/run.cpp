#include "loiter/suites/runner/run.hpp"

#include <algorithm>

#include "drive.hpp"
#include "explanations.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/running_server.hpp"
#include "loiter/suites/runner/session.hpp"
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

namespace {

// One scenario in the session `plan` makes: the server started (or taken as it runs), at
// rest, the clients driven while the session samples it, the FDs waited for, the server
// stopped, the whole judged. Without a probe of the server's side (a running server without
// its PID) nothing of that side is read and the checks that need it are not made.
ScenarioResult run_in_session(const Scenario& scenario, const fixtures::Target& target,
                              const Timing& timing, const ScenarioParameters& parameters,
                              SessionPlan plan) {
  ScenarioParameters resolved;
  auto result = begin_result(scenario, target, timing, parameters, resolved);
  if (result.skipped) return result;
  auto& observation = result.observation;
  observation.scenario = result.id;
  // The process tree, and TCP states on both ends; a soak also counts descriptors by type.
  plan.fd_types = result.expectations.soak.has_value();
  std::optional<ServerSession> session;
  try {
    session.emplace(std::move(plan));
  } catch (const fixtures::StartError& e) {
    if (e.problem() != fixtures::StartProblem::cancelled) throw;
    result.interrupted = true;  // Ctrl-C while the server was starting: not its failure
    return result;
  }
  const auto* probe = session->probe();
  const auto endpoint = *session->endpoint();
  observation.server_sampled = probe != nullptr;
  OpenWatch watch;
  if (probe != nullptr) {
    settle_into(*probe, timing, observation);
    add_provenance(result, session->provenance(target));
    watch = OpenWatch(*probe, snapshot_due(clients::Clock::now(), result.expectations.patience));
  }
  {
    // The client processes, if any, are forked before the sampler's thread starts (drive.hpp).
    Drive clients(scenario, asio_endpoint(endpoint), target, result.expectations, timing, resolved);
    session->begin_sampling(sample_period(result.expectations),
                            duration_cast<milliseconds>(result.expectations.tcp_sample_period));
    clients.run(observation, watch);
    if (interrupted()) {
      if (!scenario.winds_down || !observation.load) {
        result.interrupted = true;
        return result;  // the server is stopped on the way out; nothing is judged
      }
      result.stopped_early = true;  // judged on what ran
    }
    if (probe != nullptr) recover_into(*probe, timing, result.expectations, observation.fds);
    observation.timeline = session->end_sampling();
  }
  observation.server_exit = session->exit_description();
  std::optional<reports::Finding> late_fds;
  if (probe != nullptr) {
    // A server that died holds no FDs: its count after the run says nothing of what it gave
    // back, and a late look would only see it gone.
    if (observation.server_exit) {
      observation.fds.recovered = false;
      observation.fds.recovered_after.reset();
    } else {
      late_fds = late_fds_look(*probe, timing, result.expectations, observation.fds);
    }
    add_peaks(observation);
  }
  // What of the server still runs once it is stopped is a finding.
  if (const auto stopped = session->stop()) {
    for (const auto& leftover : stopped->leftovers) {
      observation.leftovers.push_back({.pid = leftover.pid, .command = leftover.command});
    }
  }
  judge_into(result, watch, endpoint, std::move(late_fds));
  return result;
}

}  // namespace

ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters) {
  return run_in_session(
      scenario, target, timing, parameters,
      {.start = target, .start_options = start_options(target, timing, parameters)});
}

ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters,
                            const RunningServer& server) {
  return run_in_session(scenario, target, timing, parameters,
                        {.running = {.endpoint = server.endpoint,
                                     .pid = server.pid,
                                     .udp_port = target.h3 ? std::optional(fixtures::h3_port(
                                                                 target, server.endpoint.port()))
                                                           : std::nullopt}});
}

}  // namespace loiter::suites
