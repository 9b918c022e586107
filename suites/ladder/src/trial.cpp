#include "trial.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <thread>

#include "loiter/clients/load/load.hpp"
#include "loiter/clients/pinning.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/catalogue/target_clients.hpp"
#include "loiter/suites/runner/session.hpp"

namespace loiter::suites::ladder {

namespace {

using Clock = clients::Clock;

// The schedule starts this long after the load thread was made: the generator opens its
// pool ahead of the schedule, so request 0 waits neither for the thread nor for a connect.
// Over TLS every pool connection's handshake too (a few ms each of a single-threaded
// server's CPU): a lead per connection keeps the handshakes out of the first second's p99.
constexpr auto kLead = std::chrono::milliseconds(100);
constexpr auto kLeadPerTlsConnection = std::chrono::milliseconds(4);
// The server's descriptors, processes and threads hold one value this long: settled.
constexpr auto kSettle = std::chrono::milliseconds(100);

double in_ms(clients::Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

std::uint64_t sum(const std::map<std::string, std::uint64_t>& counts) {
  std::uint64_t total = 0;
  for (const auto& [kind, count] : counts) total += count;
  return total;
}

}  // namespace

// The load on a thread of its own, pinned alone to the client's CPUs, while the caller's
// thread (which starts the next trial's server, and whose affinity a forked child starts
// with) stays unpinned. The engine measures its thread's want of a CPU (result.client).
clients::LoadResult run_load(const clients::LoadOptions& options, const std::vector<int>& cpus) {
  clients::LoadResult result;
  std::exception_ptr error;
  std::thread thread([&] {
    try {
      clients::pin_this_thread(cpus);
      clients::asio::io_context io(1);
      clients::spawn_load(io, options, result);
      io.run();
    } catch (...) {
      error = std::current_exception();
    }
  });
  thread.join();
  if (error) std::rethrow_exception(error);
  return result;
}

Pinning pinning_for(bool pin) {
  if (!pin) return {.text = "not pinned (--no-pin)"};
  const auto cpus = fixtures::cpu_affinity(0);
  if (cpus.size() < 2) {
    return {.text = fmt::format("not pinned: loiter may use {} CPU", cpus.size())};
  }
  const auto half = cpus.size() / 2;
  Pinning pinning{.server = {cpus.begin(), cpus.begin() + static_cast<long>(half)},
                  .client = {cpus.begin() + static_cast<long>(half), cpus.end()}};
  pinning.text = fmt::format("server on CPU {}, loiter's load thread on CPU {} (sched_setaffinity)",
                             fmt::join(pinning.server, ","), fmt::join(pinning.client, ","));
  return pinning;
}

TrialOutcome run_trial(const TrialPlan& plan) {
  const auto& target = *plan.target;
  ServerSession session({.start = target, .start_options = {.cancelled = plan.cancelled}});
  const auto& server = *session.server();
  TrialOutcome outcome;
  if (plan.want_provenance) outcome.provenance = session.provenance(target);
  // Warmed up and settled as a scenario's server is, over a shorter window: what a trial
  // reads of the descriptors is their peak, not a recovery to this baseline.
  const auto baseline = server.baseline({.window = kSettle});
  const auto& probe = *session.probe();
  const auto endpoint = server.endpoint();
  const clients::tcp::endpoint to{clients::asio::ip::make_address(endpoint.address().to_string()),
                                  endpoint.port()};
  const auto block = static_cast<unsigned>(plan.run % clients::kMaxSourceBlock + 1);
  const bool closed = plan.kind == reports::StepKind::saturation;
  clients::LoadOptions options{
      .server = to,
      .rate = closed ? 0.0 : plan.rate,
      .duration = std::chrono::duration_cast<clients::Duration>(plan.duration),
      .connections = plan.connections,
      .path = target.paths.health.value_or("/"),
      .start = Clock::now() + kLead +
               (target.tls ? kLeadPerTlsConnection * static_cast<long>(plan.connections)
                           : clients::Duration{}),
      .source_block = block,
      .tls = tls_client(target),
      .stop_early = plan.cancelled};
  speak_to(target, options);
  const auto server_cpus = fixtures::cpu_affinity(server.pid()).size();
  const auto before = probe.sample();
  session.begin_sampling();
  const auto result = run_load(options, plan.client_cpus);
  const auto after = probe.sample();
  const auto peaks = peaks_of(session.end_sampling());
  session.stop();

  const auto& latency = closed ? result.from_sent : result.from_intended;
  auto& trial = outcome.trial;
  trial.run = plan.run;
  trial.source = clients::source_for(to, 0, block).to_string();
  trial.seconds = std::chrono::duration<double>(result.scheduled).count();
  if (closed && trial.seconds <= 0) trial.seconds = std::chrono::duration<double>(plan.duration).count();
  trial.requested = result.requested;
  trial.dispatched = result.dispatched;
  trial.succeeded = result.succeeded;
  for (const auto& [status, count] : result.non_2xx) trial.non_2xx += count;
  trial.errors = sum(result.errors);
  trial.error_kinds = result.errors;
  trial.p50_ms = in_ms(latency.percentile(50.0));
  trial.p99_ms = in_ms(latency.percentile(99.0));
  trial.max_ms = in_ms(latency.max());
  trial.client_busy = result.client.busy;
  trial.server_cpu_s = std::max(0.0, after.cpu_seconds - before.cpu_seconds);
  if (result.client.wall_s > 0 && server_cpus > 0) {
    trial.server_busy =
        trial.server_cpu_s / (result.client.wall_s * static_cast<double>(server_cpus));
  }
  trial.server_fds_before = baseline.sample.fds;
  trial.server_fds_peak = peaks.fds;
  trial.server_rss_peak_mib = peaks.rss_mib;
  outcome.stopped = result.stopped_early;
  return outcome;
}

}  // namespace loiter::suites::ladder
