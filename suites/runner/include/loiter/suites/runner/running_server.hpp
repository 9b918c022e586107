// A scenario against a server loiter did not start (loiter check --connect HOST:PORT
// [--pid P]): the server someone else runs, where it listens and, when the user gave it, its
// PID. The run is run_scenario's with the start and stop left out: a settled baseline, the
// clients with the sampler, the bounded wait for the FDs, judge(). Without a PID nothing of
// the server's side is sampled and the checks that read it are not made (listed as such by
// the caller, never passed or failed).
//
// Why in-process and not the shard machinery (one shard 0/1 starting now, `loiter observe`'s
// watch, the merge): that path exists to put runs from other machines on one wall clock
// through files, a shared start and a start tolerance; in one process the runner's own
// steps apply as they are (run_steps.hpp), the sampler reads the server on the clients'
// steady clock, and the result is a ScenarioResult like any check's, judged by the same
// judge().
//
// No scenario of the catalogue restarts or reconfigures its server (a scenario's drive sees
// only the server's address), so none is skipped for running against one loiter did not
// start; what a scenario needs of the target is its unmet_need, as in any check.
#pragma once

#include <sys/types.h>

#include <optional>

#include "loiter/fixtures/probe/endpoint.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::suites {

struct RunningServer {
  fixtures::TcpEndpoint endpoint;  // loopback, or the one host the user allowed
  std::optional<pid_t> pid;        // its process tree is sampled; nullopt: not sampled
};

// One scenario against `server`. Harness faults throw as run_scenario's do; a server that is
// gone (its PID) by the end is a finding, as a server loiter started that exited.
ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters,
                            const RunningServer& server);

}  // namespace loiter::suites
