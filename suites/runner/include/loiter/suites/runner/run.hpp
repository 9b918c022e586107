// Runs one scenario against one target: a fresh server, a settled FD baseline, the clients
// with the sampler running, a bounded wait for FD recovery, teardown, then judge().
// Harness faults (server did not start, limits) throw; server behaviour is in the result.
#pragma once

#include <optional>
#include <string>

#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {

struct ScenarioResult {
  std::string id;
  std::optional<std::string> skipped;  // the reason, when the target lacks what it needs
  bool interrupted = false;            // the user stopped the run; nothing was judged
  // The user stopped a scenario that winds down (the soak): its schedule ended early and
  // it was judged on what ran.
  bool stopped_early = false;
  Observation observation;
  Expectations expectations;
  Verdict verdict;
  std::optional<fixtures::Provenance> provenance;  // the server as started for this scenario
};

// The scenario's defaults, overridden by what the caller set (non-zero fields).
ScenarioParameters resolve_parameters(const Scenario& scenario, const ScenarioParameters& asked);

// How long a run of the scenario may take at most (its clients' patience, any regular
// traffic, the recovery window); nullopt when the target lacks what it needs.
std::optional<Duration> longest_run(const Scenario& scenario, const fixtures::Target& target,
                                    const Timing& timing, const ScenarioParameters& asked);

ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters = {});

}  // namespace loiter::suites
