// The steps of a scenario's run once its server listens, the same whether loiter started the
// server or connects to one it did not (run.cpp, in its session): the settled baseline, the
// bounded wait for the FDs to come back, the peaks, and the explanations beside a failed
// verdict. Private to the runner.
#pragma once

#include <chrono>
#include <optional>

#include "explanations.hpp"
#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/reports/finding.hpp"
#include "loiter/suites/catalogue/timing.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::suites {

// The result a run of `scenario` starts from: its id and, unless the target lacks what it
// needs (then `skipped` says why), its expectations under the parameters `asked` resolved
// (into `resolved`).
ScenarioResult begin_result(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& asked,
                            ScenarioParameters& resolved);

// Between the sampler's samples: the scenario's own period, else 100 ms.
std::chrono::milliseconds sample_period(const Expectations& expected);

// The server at rest before the clients run: the observation's baseline and FD baseline.
void settle_into(const fixtures::Probe& probe, const Timing& timing, Observation& observation);

// The server's provenance into the result, and its RLIMIT_NOFILE as the FDs' limit (read
// once, for both).
void add_provenance(ScenarioResult& result, fixtures::Provenance provenance);

// Waits (bounded by the recovery window) for the FDs to come back to the baseline plus what
// the scenario may hold; the outcome into `fds`.
void recover_into(const fixtures::Probe& probe, const Timing& timing, const Expectations& expected,
                  FdObservation& fds);

// FDs not back in time: looks a while longer, to say how late (the verdict stays a failure).
std::optional<reports::Finding> late_fds_look(const fixtures::Probe& probe, const Timing& timing,
                                              const Expectations& expected,
                                              const FdObservation& fds);

// The FDs' peak, summed and in one process, over the observation's timeline.
void add_peaks(Observation& observation);

// judge() on the result's observation, then beside a failure the kernel's view of the
// connections left open and how late the FDs came back.
void judge_into(ScenarioResult& result, const OpenWatch& watch, const fixtures::TcpEndpoint& server,
                std::optional<reports::Finding> late_fds);

}  // namespace loiter::suites
