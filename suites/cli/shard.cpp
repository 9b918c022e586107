// `loiter check --shard k/K --start-at T --connect HOST:PORT`: its options, what it refuses
// before anything starts, and what it prints; the shard's life in its directory is the
// runner's (shard_lifecycle.hpp).
#include "shard.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <utility>

#include "endpoint_text.hpp"
#include "finish.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/shard_lifecycle.hpp"
#include "refusals.hpp"

namespace loiter::cli {

fixtures::TcpEndpoint server_endpoint(const CheckOptions& options) {
  if (options.connect.empty()) {
    throw std::invalid_argument(
        "a shard needs --connect HOST:PORT: the server it drives, which "
        "loiter does not start");
  }
  return connect_endpoint(options.connect, options.allow_remote);
}

namespace {

namespace fs = std::filesystem;
using suites::WallClock;

constexpr auto kLongestWait = std::chrono::hours(24);
constexpr auto kLatestStart = std::chrono::hours(1);

// "k/K", k in [0, K). Throws std::invalid_argument.
clients::FleetShare parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  std::size_t k = 0, count = 0;
  const auto* end = text.data() + text.size();
  const bool read =
      slash != std::string::npos &&
      std::from_chars(text.data(), text.data() + slash, k).ptr == text.data() + slash &&
      std::from_chars(text.data() + slash + 1, end, count).ptr == end;
  if (!read || count == 0 || k >= count || count > 10'000) {
    throw std::invalid_argument(fmt::format(
        "--shard '{}' is not k/K with 0 <= k < K <= 10000 (k counts from 0, as a Kubernetes "
        "Indexed Job's JOB_COMPLETION_INDEX does)",
        text));
  }
  return {.part = k, .parts = count};
}

// Every input checked before anything starts. Throws std::invalid_argument.
suites::ShardJob shard_job(const CheckOptions& options) {
  const auto share = parse_shard(options.shard);
  if (options.start_at.empty()) {
    throw std::invalid_argument("a shard needs --start-at: the one start time of every shard");
  }
  const auto start_at = suites::parse_utc_option("--start-at", options.start_at);
  // Bounded: a shard waits for its start at most a day, and one whose start passed over an
  // hour ago is not part of that run any more.
  const auto now = WallClock::now();
  if (start_at > now + kLongestWait || start_at < now - kLatestStart) {
    throw std::invalid_argument(fmt::format(
        "--start-at {} is more than a day ahead or more than an hour ago (it is {} now)",
        options.start_at, suites::format_utc(now)));
  }
  const auto server = server_endpoint(options);
  if (!options.faults.empty()) {
    throw std::invalid_argument(
        "--fault plants a bug in a reference server loiter starts; a "
        "shard drives a server started elsewhere");
  }
  if (options.pid) {
    throw std::invalid_argument(
        "--pid goes with --connect without --shard; a shard's server "
        "is watched by `loiter observe --pid` on its own machine");
  }
  if (options.scenarios.size() != 1 || !options.families.empty()) {
    throw std::invalid_argument("a shard runs one scenario: give exactly one --scenario");
  }
  auto target = chosen_target(options);
  if (auto problem = suites::asked_flood_problem(options.scenarios, {}, target)) {
    throw std::invalid_argument(*problem);
  }
  return suites::plan_shard({.scenario = options.scenarios.front(),
                             .target = std::move(target),
                             .asked = parameters_of(options),
                             .share = share,
                             .start_at = start_at,
                             .server = server,
                             .target_named = options.target,
                             .settings = key_settings(options),
                             .server_named = options.connect,
                             .loiter_version = LOITER_VERSION});
}

void print_done(const suites::ShardHeader& h, const suites::ShardOutput& out, const fs::path& dir) {
  std::string load;
  if (out.load) {
    load = fmt::format("; requests requested/dispatched/2xx {}/{}/{}", out.load->requested,
                       out.load->dispatched, out.load->succeeded);
  }
  fmt::print("shard {} of {} ({}, plan {}): {} connections{}; {:.3f} s late against {}: {}\n",
             h.index, h.count, h.plan.scenario, h.plan_hash, out.records.size(), load,
             suites::in_seconds(h.lag.value_or(clients::Duration{})),
             suites::format_utc(h.start_at), to_string(h.status));
  std::cerr << "shard directory: " << dir.string() << "\n";
}

}  // namespace

void add_shard_options(CLI::App& command, CheckOptions& options) {
  command.add_option("--shard", options.shard,
                     "k/K: run share k (0 … K-1) of one scenario split over K shards "
                     "(connection i and request n when i, n mod K = k); needs --start-at, "
                     "--connect and one --scenario, starts no server, writes a shard directory "
                     "for `loiter merge`");
  command.add_option("--start-at", options.start_at,
                     "with --shard: the shared start, RFC 3339 UTC (2026-12-02T10:00:00Z); every "
                     "shard's timeline starts there");
  command.add_option("--connect", options.connect,
                     "the server, HOST:PORT (loopback unless --allow-remote), which loiter "
                     "does not start: with --shard one share of a run, else the scenarios one "
                     "after another (give --target, and --pid for the server-side checks)");
  command.add_option("--allow-remote", options.allow_remote,
                     "with --connect: the one host off loopback loiter may drive (an address, "
                     "or a name it resolves)");
}

int run_shard(const CheckOptions& options) {
  // Every input refused here (exit 2), and a share that has run already.
  auto job = refusing([&] { return shard_job(options); });
  const auto dir = refusing([&] { return suites::make_shard_directory(options.runs_root, job); });
  suites::install_interrupt_handlers();
  const auto run = suites::run_shard(std::move(job), dir);
  for (const auto& error : run.errors) std::cerr << "loiter: " << error << "\n";
  if (run.output) print_done(run.header, *run.output, dir);
  using suites::ShardStatus;
  if (!run.header_written || run.header.status == ShardStatus::failed) return kInfrastructure;
  return run.header.status == ShardStatus::interrupted || suites::interrupted() ? kInterrupted
                                                                                : kPassed;
}

}  // namespace loiter::cli
