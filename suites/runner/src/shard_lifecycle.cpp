// A shard's life in its directory: waiting for the shared start, running, then complete,
// interrupted or failed, each written to shard.json as it happens.
#include "loiter/suites/runner/shard_lifecycle.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

#include "loiter/clients/transport/asio.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/catalogue/timing.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/shard_run.hpp"

namespace loiter::suites {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The clients are handed their timeline this long before the shared start: forked client
// processes and the load's pool get ready, and nothing is due before the start.
constexpr auto kReadyLead = 300ms;

// Sleeps until `until` (steady), a slice at a time, unless the user interrupts.
bool wait_until(clients::Clock::time_point until) {
  while (clients::Clock::now() < until) {
    if (interrupted()) return false;
    std::this_thread::sleep_for(std::min<clients::Duration>(until - clients::Clock::now(), 50ms));
  }
  return !interrupted();
}

// The shared start on this machine's steady clock.
clients::Clock::time_point steady_of(WallClock::time_point at) {
  return clients::Clock::now() +
         std::chrono::duration_cast<clients::Duration>(at - WallClock::now());
}

// The status written; a shard.json that cannot be written is said in `run`.
void write_status(ShardRun& run, const fs::path& dir, ShardStatus status) {
  run.header.status = status;
  try {
    write_shard_header(dir, run.header);
    run.header_written = true;
  } catch (const std::exception& e) {
    run.errors.emplace_back(e.what());
    run.header_written = false;
  }
}

// The share driven from `origin` and its output written; throws on a harness fault.
ShardOutput drive(const ShardJob& job, clients::Clock::time_point origin, ShardHeader& h,
                  const fs::path& dir) {
  write_shard_header(dir, h);
  auto out = drive_shard(*job.scenario, job.target, job.server, job.expected, job.timing,
                         job.parameters, job.share, origin);
  h.ended = WallClock::now();
  h.fleets = out.fleets;
  h.records = out.records.size();
  h.client_processes = out.client_processes;
  h.stopped_early = out.stopped_early;
  write_shard_output(dir, out, origin);
  return out;
}

}  // namespace

ShardHeader shard_header(ShardPlan plan, clients::FleetShare share,
                         WallClock::time_point start_at) {
  ShardHeader header{.plan = std::move(plan), .start_at = start_at};
  header.plan_hash = plan_hash(header.plan);
  header.index = share.part;
  header.count = share.parts;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  header.host = host;
  header.pid = ::getpid();
  return header;
}

fs::path make_shard_directory(const fs::path& runs_root, const ShardJob& job) {
  const auto& h = job.header;
  const auto dir = runs_root / shard_directory_name(h.start_at, job.target.name, h.index, h.count);
  fs::create_directories(dir.parent_path());
  if (!fs::create_directory(dir)) {
    throw std::invalid_argument(
        fmt::format("{} exists: this share of the run has already run (a share never runs twice)",
                    dir.string()));
  }
  write_shard_header(dir, h);
  return dir;
}

ShardRun run_shard(ShardJob job, const fs::path& dir) {
  ShardRun run{.header = job.header};
  auto& h = run.header;
  if (!wait_until(steady_of(h.start_at) - kReadyLead)) {
    write_status(run, dir, ShardStatus::interrupted);
    return run;
  }
  const auto origin = steady_of(h.start_at);
  // How much later than planned (kReadyLead before the start) the clients got their timeline:
  // the wake's lateness when the shard was ready in time; more when it came late.
  h.lag = std::max<clients::Duration>(clients::Duration{},
                                      clients::Clock::now() - (origin - kReadyLead));
  h.clients_from = WallClock::now();
  h.status = ShardStatus::running;
  try {
    run.output = drive(job, origin, h, dir);
  } catch (const std::exception& e) {
    h.error = e.what();
    run.errors.push_back(fmt::format("shard {} of {}: {}", h.index, h.count, e.what()));
    write_status(run, dir, ShardStatus::failed);
    return run;
  }
  write_status(run, dir,
               run.output->interrupted ? ShardStatus::interrupted : ShardStatus::complete);
  return run;
}

ShardJob plan_shard(const ShardAsk& ask) {
  ShardJob job{.target = ask.target, .timing = timing(), .share = ask.share, .server = ask.server};
  job.scenario = choose_scenarios({ask.scenario}, ask.share.of(ask.asked.count)).front();
  job.parameters = resolve_parameters(*job.scenario, ask.asked);
  if (auto problem = count_problem(*job.scenario, ask.share.of(job.parameters.count))) {
    throw std::invalid_argument(*problem + " (each shard's share)");
  }
  job.expected = job.scenario->expect(job.target, job.timing, job.parameters);
  if (job.expected.load && job.parameters.load_connections < ask.share.parts) {
    throw std::invalid_argument(fmt::format(
        "{} shards need at least {} keep-alive connections of regular traffic (one a shard): "
        "--load-connections {}",
        ask.share.parts, ask.share.parts, ask.share.parts));
  }
  if (auto reason = job.scenario->unmet_need(job.target)) {
    throw std::invalid_argument(
        fmt::format("{} cannot run against {}: {}", job.scenario->id, job.target.name, *reason));
  }
  ShardPlan plan{.scenario = std::string(job.scenario->id),
                 .target = ask.target_named,
                 .target_sha256 = {},
                 .settings = ask.settings,
                 .server = ask.server_named,
                 .parameters = job.parameters,
                 .scale = job.timing.scale,
                 .loiter_version = ask.loiter_version};
  plan.parameters.server_dir.clear();
  plan.parameters.connections_per_process = 0;
  if (fs::is_regular_file(ask.target_named)) {
    plan.target_sha256 = fixtures::sha256_of_file(ask.target_named);
  }
  job.header = shard_header(std::move(plan), ask.share, ask.start_at);
  return job;
}

}  // namespace loiter::suites
