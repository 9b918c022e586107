#include "run_steps.hpp"

#include <algorithm>
#include <utility>

#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites {

ScenarioResult begin_result(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& asked,
                            ScenarioParameters& resolved) {
  ScenarioResult result{.id = std::string(scenario.id)};
  if (auto reason = scenario.unmet_need(target)) {
    result.skipped = std::move(reason);
    return result;
  }
  resolved = resolve_parameters(scenario, asked);
  result.expectations = scenario.expect(target, timing, resolved);
  return result;
}

namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

std::size_t peak_in_one_process(const std::vector<fixtures::TimedSample>& timeline) {
  std::size_t peak = 0;
  for (const auto& s : timeline) {
    for (const auto& process : s.sample.per_process) peak = std::max(peak, process.fds);
  }
  return peak;
}

std::size_t peak_fds(const std::vector<fixtures::TimedSample>& timeline) {
  std::size_t peak = 0;
  for (const auto& s : timeline) peak = std::max(peak, s.sample.fds);
  return peak;
}

}  // namespace

milliseconds sample_period(const Expectations& expected) {
  constexpr milliseconds kDefault{100};
  if (expected.sample_period <= Duration{}) return kDefault;
  return std::max(milliseconds(1), duration_cast<milliseconds>(expected.sample_period));
}

void settle_into(const fixtures::Probe& probe, const Timing& timing, Observation& observation) {
  const auto settled =
      fixtures::settle_baseline(probe, duration_cast<milliseconds>(timing.settle_window),
                                duration_cast<milliseconds>(timing.settle_timeout));
  observation.fds.baseline = settled.sample.fds;
  observation.fds.baseline_settled = settled.settled;
  observation.baseline = settled.sample;
}

void add_provenance(ScenarioResult& result, fixtures::Provenance provenance) {
  result.provenance = std::move(provenance);
  if (const auto& nofile = result.provenance->server_nofile; nofile && nofile->soft) {
    result.observation.fds.server_limit = static_cast<std::size_t>(*nofile->soft);
  }
}

void recover_into(const fixtures::Probe& probe, const Timing& timing, const Expectations& expected,
                  FdObservation& fds) {
  const auto recovery = fixtures::wait_for_fds_at_most(
      probe, fds.baseline + expected.fds_after, duration_cast<milliseconds>(timing.recovery_stay),
      duration_cast<milliseconds>(expected.recovery));
  fds.recovered = recovery.recovered;
  fds.after = recovery.last_fds;
  if (recovery.recovered) fds.recovered_after = recovery.after;
}

std::optional<reports::Finding> late_fds_look(const fixtures::Probe& probe, const Timing& timing,
                                              const Expectations& expected,
                                              const FdObservation& fds) {
  if (fds.recovered) return std::nullopt;
  const auto look = duration_cast<milliseconds>(timing.late_look);
  const auto late =
      fixtures::wait_for_fds_at_most(probe, fds.baseline + expected.fds_after,
                                     duration_cast<milliseconds>(timing.recovery_stay), look);
  FdObservation seen = fds;
  seen.recovered = late.recovered;
  seen.after = late.last_fds;
  if (late.recovered) seen.recovered_after = expected.recovery + late.after;
  return late_fds_finding(seen, expected.recovery, expected.recovery + look);
}

void add_peaks(Observation& observation) {
  observation.fds.peak = peak_fds(observation.timeline);
  observation.fds.peak_in_one_process = peak_in_one_process(observation.timeline);
}

void judge_into(ScenarioResult& result, const OpenWatch& watch, const fixtures::TcpEndpoint& server,
                std::optional<reports::Finding> late_fds) {
  result.verdict = judge(result.observation, result.expectations);
  if (result.verdict.passed) return;
  auto found = watch.findings(result.observation.connections, server, result.expectations.patience);
  if (late_fds) found.push_back(std::move(*late_fds));
  for (auto& finding : found) {
    finding.scenario = result.id;
    result.verdict.findings.push_back(std::move(finding));
  }
}

}  // namespace loiter::suites
