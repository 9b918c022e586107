#include "denial_trial.hpp"

#include <algorithm>

#include "loiter/clients/holder.hpp"
#include "loiter/clients/load/load.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/fixtures/probe/proc.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/catalogue/target_clients.hpp"
#include "loiter/suites/runner/session.hpp"
#include "trial.hpp"

namespace loiter::suites::ladder {

namespace denial_steps {

using Clock = clients::Clock;
using namespace std::chrono_literals;

constexpr auto kServerSettle = 100ms;  // the server's descriptors hold one value this long
constexpr auto kLoadLead = 100ms;      // the regular schedule starts this long after its thread
constexpr auto kSample = 100ms;        // the server sampled this often
constexpr auto kTcpPeriod = 500ms;     // the kernel's TCP states (the accept queue) at most this often
// A regular request not answered whole by then is an error ("timeout"): a denied server
// leaves its requests waiting, and the step must end.
constexpr auto kRequestTimeout = 2s;
// The regular traffic's connections are replaced every this many requests: visitors arrive
// on new connections (rate / 10 a second), so a server that stops accepting denies them
// even where the pool's first connections got in before it did.
constexpr std::size_t kRequestsPerVisitor = 10;

double seconds_of(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// The server's RLIMIT_NOFILE (soft), from /proc/PID/limits.
std::optional<std::size_t> fd_limit_of(pid_t pid) {
  const auto limits = fixtures::live_proc().read(pid, "limits");
  const auto limit = limits ? fixtures::parse_open_files_limit(*limits) : std::nullopt;
  if (!limit || !limit->soft) return std::nullopt;
  return static_cast<std::size_t>(*limit->soft);
}

// The listeners' accept queue at its fullest over the timeline, and its capacity.
std::pair<std::size_t, std::size_t> accept_queue_peak(
    const std::vector<fixtures::TimedSample>& timeline) {
  std::size_t peak = 0, backlog = 0;
  for (const auto& sample : timeline) {
    if (!sample.sample.tcp) continue;
    peak = std::max(peak, sample.sample.tcp->accept_queue);
    backlog = std::max(backlog, sample.sample.tcp->backlog);
  }
  return {peak, backlog};
}

std::uint64_t error_total(const std::map<std::string, std::uint64_t>& counts) {
  std::uint64_t total = 0;
  for (const auto& [kind, count] : counts) total += count;
  return total;
}

}  // namespace denial_steps

using namespace denial_steps;

DenialTrialOutcome run_denial_trial(const DenialTrialPlan& plan) {
  const auto& target = *plan.target;
  ServerSession session({.start = target, .start_options = {.cancelled = plan.cancelled}});
  const auto& server = *session.server();
  DenialTrialOutcome outcome;
  if (plan.want_provenance) outcome.provenance = session.provenance(target);
  const auto baseline = server.baseline({.window = kServerSettle});
  const auto endpoint = server.endpoint();
  const clients::tcp::endpoint to{clients::asio::ip::make_address(endpoint.address().to_string()),
                                  endpoint.port()};
  // The held connections and the regular traffic come from source blocks of their own, and
  // each step from blocks no other step used lately: nothing inherits another's TIME_WAIT.
  const auto block = [&](unsigned which) {
    return static_cast<unsigned>((2 * plan.run + which) % clients::kMaxSourceBlock + 1);
  };
  const auto load_wait = kLoadLead + plan.duration + kRequestTimeout;
  const auto ramp_time = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(static_cast<double>(plan.held) / plan.ramp));
  auto& step = outcome.step;
  step.held = plan.held;
  step.server_fds_before = baseline.sample.fds;
  step.server_fd_limit = fd_limit_of(server.pid());

  session.begin_sampling(kSample, kTcpPeriod);
  const auto began = Clock::now();
  // Held QUIC connections go to the server's UDP port ([h3] port, else the run's).
  auto held_at = to;
  if (target.h3 && target.h3->port) held_at.port(*target.h3->port);
  // The control step (held 0) runs the regular traffic alone.
  std::optional<clients::Holder> holder;
  if (plan.held > 0) {
    holder.emplace(clients::HolderPlan{
        .kind = plan.kind,
        .fleet = {.target = held_at,
                  .count = plan.held,
                  .pacing = {.start = began, .per_second = plan.ramp},
                  .source_block = block(0),
                  .tls = tls_client(target)},
        .settings = plan.settings,
        .until = began + ramp_time + kRampSlack +
                 std::chrono::duration_cast<Clock::duration>(load_wait) + 1s,
        .cpus = plan.client_cpus});
    // Every one open, or the ramp's time and its slack passed, or the user stopped.
    holder->wait_for_open(plan.held, began + ramp_time + kRampSlack, plan.cancelled);
    holder->mark_low();
  }
  const auto figures = [&] { return holder ? holder->figures() : clients::HolderFigures{}; };
  const auto at_start = figures();
  step.held_reached = at_start.open;
  step.reach_seconds =
      holder ? seconds_of((at_start.reached ? *at_start.reached : Clock::now()) - began) : 0;

  clients::LoadOptions options{
      .server = to,
      .rate = plan.rate,
      .duration = std::chrono::duration_cast<clients::Duration>(plan.duration),
      .connections = plan.connections,
      .path = target.paths.health.value_or("/"),
      .request_timeout = kRequestTimeout,
      .start = Clock::now() + kLoadLead,
      .source_block = block(1),
      .tls = tls_client(target),
      .churn = {.replace_every = kRequestsPerVisitor},
      .stop_early = plan.cancelled};
  speak_to(target, options);
  const auto server_cpus = fixtures::cpu_affinity(server.pid()).size();
  const auto before = session.probe()->sample();
  std::exception_ptr load_error;
  clients::LoadResult result;
  try {
    result = run_load(options, plan.client_cpus);
  } catch (...) {  // rethrown once the holder and the server are stopped
    load_error = std::current_exception();
  }
  const auto at_end = figures();
  const auto after = session.probe()->sample();
  const auto timeline = session.end_sampling();
  if (holder) holder->stop();
  session.stop();
  if (load_error) std::rethrow_exception(load_error);

  const double wall = result.client.wall_s > 0 ? result.client.wall_s : seconds_of(load_wait);
  step.seconds = seconds_of(result.scheduled);
  step.held_low = at_end.open_low;
  step.opened = at_end.opened;
  step.reopened = at_end.reopened;
  step.connect_failures = at_end.connect_failures;
  step.connects_per_s = static_cast<double>(at_end.reopened - at_start.reopened) / wall;
  step.bytes_per_s = static_cast<double>(at_end.bytes_sent - at_start.bytes_sent) / wall;
  step.holder_busy = holder ? holder->busy() : 0;
  step.requested = result.requested;
  step.succeeded = result.succeeded;
  for (const auto& [status, count] : result.non_2xx) step.non_2xx += count;
  step.errors = error_total(result.errors);
  step.error_kinds = result.errors;
  step.p99_ms = std::chrono::duration<double, std::milli>(result.from_intended.percentile(99.0)).count();
  step.max_ms = std::chrono::duration<double, std::milli>(result.from_intended.max()).count();
  step.client_busy = result.client.busy;
  const auto peaks = peaks_of(timeline);
  step.server_fds_peak = peaks.fds;
  step.server_rss_peak_mib = peaks.rss_mib;
  if (server_cpus > 0) {
    step.server_busy = std::max(0.0, after.cpu_seconds - before.cpu_seconds) /
                       (wall * static_cast<double>(server_cpus));
  }
  std::tie(step.accept_queue_peak, step.backlog) = accept_queue_peak(timeline);
  outcome.stopped = result.stopped_early;
  return outcome;
}

}  // namespace loiter::suites::ladder
