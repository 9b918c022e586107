// One scenario against a server loiter did not start (running_server.hpp): the steps of
// run_scenario without the start and the stop, the server's side sampled only when its PID
// is known.
#include <fmt/format.h>

#include <optional>
#include <utility>

#include "drive.hpp"
#include "explanations.hpp"
#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/fixtures/probe/sampler.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/running_server.hpp"
#include "run_steps.hpp"

namespace loiter::suites {

ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters,
                            const RunningServer& server) {
  ScenarioParameters resolved;
  auto result = begin_result(scenario, target, timing, parameters, resolved);
  if (result.skipped) return result;
  auto& observation = result.observation;
  observation.scenario = result.id;
  observation.server_sampled = server.pid.has_value();
  // The process tree under the PID, and the TCP states of the server's address and port on
  // both ends; a soak also counts descriptors by type.
  std::optional<fixtures::Probe> probe;
  if (server.pid) {
    const fixtures::Probe tree(*server.pid, server.endpoint);
    probe.emplace(result.expectations.soak ? tree.with_fd_types() : tree);
    settle_into(*probe, timing, observation);
    add_provenance(result, fixtures::gather_provenance(target, *server.pid));
  }
  OpenWatch watch;
  if (probe) {
    watch = OpenWatch(*probe, snapshot_due(clients::Clock::now(), result.expectations.patience));
  }
  {
    // The client processes, if any, are forked before the sampler's thread starts (drive.hpp).
    Drive clients(scenario, asio_endpoint(server.endpoint), target, result.expectations, timing,
                  resolved);
    std::optional<fixtures::Sampler> sampler;
    if (probe) sampler.emplace(*probe, sample_period(result.expectations));
    clients.run(observation, watch);
    if (interrupted()) {
      if (!scenario.winds_down || !observation.load) {
        result.interrupted = true;
        return result;  // nothing is judged
      }
      result.stopped_early = true;  // judged on what ran
    }
    if (probe) recover_into(*probe, timing, result.expectations, observation.fds);
    if (sampler) observation.timeline = sampler->stop();
  }
  std::optional<reports::Finding> late_fds;
  if (probe) {
    late_fds = late_fds_look(*probe, timing, result.expectations, observation.fds);
    add_peaks(observation);
    if (probe->tree().empty()) {
      observation.server_exit = fmt::format("pid {} is gone (no process of it runs)", *server.pid);
    }
  }
  judge_into(result, watch, server.endpoint, std::move(late_fds));
  return result;
}

}  // namespace loiter::suites
