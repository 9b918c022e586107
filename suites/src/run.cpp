#include "loiter/suites/run.hpp"

#include "loiter/clients/targets.hpp"
#include "loiter/fixtures/probe.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/sampler.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/interrupt.hpp"
#include "loiter/suites/judge.hpp"

namespace loiter::suites {

namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

std::vector<clients::ConnectionRecord> drive(const Scenario& scenario,
                                             const fixtures::ServerUnderTest& sut,
                                             const Expectations& expected, const Timing& timing) {
  const clients::tcp::endpoint server(clients::asio::ip::make_address(sut.host()), sut.port());
  clients::require_fd_room(expected.connections);
  clients::asio::io_context io(1);
  std::vector<clients::ConnectionRecord> records;
  scenario.drive(io,
                 {.server = server, .target = sut.target(), .expected = expected, .timing = timing},
                 records);
  // Every client is bounded by its own patience; the loop also stops them early when the
  // user interrupts the run (their sockets close as the io_context is destroyed).
  while (!io.stopped()) {
    io.run_for(std::chrono::milliseconds(50));
    if (interrupted()) io.stop();
  }
  return records;
}

std::size_t peak_fds(const std::vector<fixtures::TimedSample>& timeline) {
  std::size_t peak = 0;
  for (const auto& s : timeline) peak = std::max(peak, s.sample.fds);
  return peak;
}

}  // namespace

ScenarioResult run_scenario(const Scenario& scenario, const fixtures::Target& target,
                            const Timing& timing, const ScenarioParameters& parameters) {
  ScenarioResult result{.id = std::string(scenario.id)};
  if (auto reason = scenario.unmet_need(target)) {
    result.skipped = std::move(reason);
    return result;
  }
  const ScenarioParameters resolved{.count = parameters.count != 0 ? parameters.count
                                                                   : scenario.default_count};
  result.expectations = scenario.expect(target, timing, resolved);
  fixtures::ServerUnderTest sut(target,
                                {.ready_timeout = duration_cast<milliseconds>(timing.ready),
                                 .stop_grace = duration_cast<milliseconds>(timing.stop_grace),
                                 .log_dir = parameters.server_dir});
  const fixtures::Probe probe(sut.pid());
  auto& fds = result.observation.fds;
  const auto settled =
      fixtures::settle_fds(probe, duration_cast<milliseconds>(timing.settle_window),
                           duration_cast<milliseconds>(timing.settle_timeout));
  fds.baseline = settled.fds;
  fds.baseline_settled = settled.settled;
  result.provenance = fixtures::gather_provenance(sut);
  {
    fixtures::Sampler sampler(sut.probe());  // with the TCP states of the server's port
    result.observation.connections = drive(scenario, sut, result.expectations, timing);
    if (interrupted()) {
      result.interrupted = true;
      return result;  // the server is stopped on the way out; nothing is judged
    }
    const auto recovery =
        fixtures::wait_for_fds_at_most(probe, fds.baseline + result.expectations.fds_after,
                                       duration_cast<milliseconds>(timing.recovery_stay),
                                       duration_cast<milliseconds>(result.expectations.recovery));
    fds.recovered = recovery.recovered;
    fds.after = recovery.last_fds;
    if (recovery.recovered) fds.recovered_after = recovery.after;
    result.observation.timeline = sampler.stop();
  }
  fds.peak = peak_fds(result.observation.timeline);
  result.observation.scenario = result.id;
  result.observation.server_exit = sut.exit_description();
  result.verdict = judge(result.observation, result.expectations);
  return result;
}

}  // namespace loiter::suites
