// `loiter check --shard k/K --start-at T --connect HOST:PORT`: one shard of a run split over
// machines, into its shard directory.
#include "shard.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <thread>

#include "drive.hpp"
#include "endpoint_text.hpp"
#include "finish.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "loiter/suites/runner/shard_run.hpp"

namespace loiter::cli {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using suites::WallClock;

// The clients are handed their timeline this long before the shared start: forked client
// processes and the load's pool get ready, and nothing is due before the start.
constexpr auto kReadyLead = 300ms;
constexpr auto kLongestWait = std::chrono::hours(24);
constexpr auto kLatestStart = std::chrono::hours(1);

fixtures::TcpEndpoint plain_endpoint(const clients::tcp::endpoint& endpoint) {
  return {*fixtures::IpAddress::parse(endpoint.address().to_string()), endpoint.port()};
}

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

// The server's address: loopback, or the one host --allow-remote names (an address or a
// name, resolved here).
clients::tcp::endpoint server_of(const CheckOptions& options) {
  if (options.connect.empty()) {
    throw std::invalid_argument("a shard needs --connect HOST:PORT: the server it drives, which "
                                "loiter does not start");
  }
  const auto [host, port] = split_host_port(options.connect);
  boost::system::error_code error;
  clients::asio::ip::make_address(host, error);
  if (error && host == options.allow_remote) {  // a name: resolve it
    clients::asio::io_context io;
    clients::tcp::resolver resolver(io);
    const auto found = resolver.resolve(host, std::to_string(port), error);
    if (error || found.empty()) {
      throw std::invalid_argument(fmt::format("--connect {}: cannot resolve {}: {}",
                                              options.connect, host, error.message()));
    }
    return found.begin()->endpoint();
  }
  const auto server = parse_endpoint(options.connect);
  if (server.address().is_loopback()) return server;
  if (options.allow_remote.empty() ||
      (options.allow_remote != host && options.allow_remote != server.address().to_string())) {
    throw std::invalid_argument(fmt::format(
        "refusing {}: loiter only targets loopback unless --allow-remote names the host ({})",
        options.connect, host));
  }
  return server;
}

struct ShardInputs {
  const suites::Scenario* scenario = nullptr;
  fixtures::Target target;
  suites::Timing timing;
  suites::ScenarioParameters parameters;  // resolved
  suites::Expectations expected;
  clients::FleetShare share;
  clients::tcp::endpoint server;
  suites::ShardHeader header;
};

suites::ShardPlan plan_of(const CheckOptions& options, const ShardInputs& in) {
  suites::ShardPlan plan{.scenario = std::string(in.scenario->id),
                         .target = options.target,
                         .target_sha256 = {},
                         .header_timeout = options.header_timeout,
                         .body_timeout = options.body_timeout,
                         .idle_timeout = options.idle_timeout,
                         .send_timeout = options.send_timeout,
                         .server = options.connect,
                         .parameters = in.parameters,
                         .scale = in.timing.scale,
                         .loiter_version = LOITER_VERSION};
  plan.parameters.server_dir.clear();
  plan.parameters.connections_per_process = 0;
  if (fs::is_regular_file(options.target)) {
    plan.target_sha256 = fixtures::sha256_of_file(options.target);
  }
  return plan;
}

// Every input checked before anything starts. Throws std::invalid_argument.
ShardInputs shard_inputs(const CheckOptions& options) {
  ShardInputs in;
  in.share = parse_shard(options.shard);
  if (options.start_at.empty()) {
    throw std::invalid_argument("a shard needs --start-at: the one start time of every shard");
  }
  in.header.start_at = suites::parse_utc_option("--start-at", options.start_at);
  // Bounded: a shard waits for its start at most a day, and one whose start passed over an
  // hour ago is not part of that run any more.
  const auto now = WallClock::now();
  if (in.header.start_at > now + kLongestWait || in.header.start_at < now - kLatestStart) {
    throw std::invalid_argument(fmt::format(
        "--start-at {} is more than a day ahead or more than an hour ago (it is {} now)",
        options.start_at, suites::format_utc(now)));
  }
  in.server = server_of(options);
  if (!options.faults.empty()) {
    throw std::invalid_argument("--fault plants a bug in a reference server loiter starts; a "
                                "shard drives a server started elsewhere");
  }
  if (options.scenarios.size() != 1 || !options.families.empty()) {
    throw std::invalid_argument("a shard runs one scenario: give exactly one --scenario");
  }
  in.target = chosen_target(options);
  in.timing = suites::timing();
  const auto asked = parameters_of(options);
  in.scenario = suites::choose_scenarios(options.scenarios, in.share.of(asked.count)).front();
  in.parameters = suites::resolve_parameters(*in.scenario, asked);
  if (auto problem = suites::count_problem(*in.scenario, in.share.of(in.parameters.count))) {
    throw std::invalid_argument(*problem + " (each shard's share)");
  }
  in.expected = in.scenario->expect(in.target, in.timing, in.parameters);
  if (in.expected.load && in.parameters.load_connections < in.share.parts) {
    throw std::invalid_argument(fmt::format(
        "{} shards need at least {} keep-alive connections of regular traffic (one a shard): "
        "--load-connections {}",
        in.share.parts, in.share.parts, in.share.parts));
  }
  if (auto reason = in.scenario->unmet_need(in.target)) {
    throw std::invalid_argument(fmt::format("{} cannot run against {}: {}", in.scenario->id,
                                            in.target.name, *reason));
  }
  in.header.plan = plan_of(options, in);
  in.header.plan_hash = suites::plan_hash(in.header.plan);
  in.header.index = in.share.part;
  in.header.count = in.share.parts;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  in.header.host = host;
  in.header.pid = ::getpid();
  return in;
}

// Sleeps until `until` (steady), a slice at a time, unless the user interrupts.
bool wait_until(clients::Clock::time_point until) {
  while (clients::Clock::now() < until) {
    if (suites::interrupted()) return false;
    std::this_thread::sleep_for(std::min<clients::Duration>(until - clients::Clock::now(), 50ms));
  }
  return !suites::interrupted();
}

// The shared start on this machine's steady clock.
clients::Clock::time_point steady_of(WallClock::time_point at) {
  return clients::Clock::now() +
         std::chrono::duration_cast<clients::Duration>(at - WallClock::now());
}

void print_done(const ShardInputs& in, const suites::ShardOutput& out, const fs::path& dir) {
  const auto& h = in.header;
  std::string load;
  if (out.load) {
    load = fmt::format("; requests requested/dispatched/2xx {}/{}/{}", out.load->requested,
                       out.load->dispatched, out.load->succeeded);
  }
  fmt::print("shard {} of {} ({}, plan {}): {} connections{}; {:.3f} s late against {}: {}\n",
             h.index, h.count, h.plan.scenario, h.plan_hash, out.records.size(), load,
             suites::in_seconds(h.lag.value_or(clients::Duration{})), suites::format_utc(h.start_at),
             h.status);
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
                     "with --shard: the server, HOST:PORT (loopback unless --allow-remote)");
  command.add_option("--allow-remote", options.allow_remote,
                     "with --shard: the one host off loopback the shard may drive (an address, "
                     "or a name it resolves)");
}

int run_shard(const CheckOptions& options) {
  ShardInputs in;
  fs::path dir;
  try {
    in = shard_inputs(options);
    dir = fs::path(options.runs_root) /
          suites::shard_directory_name(in.header.start_at, in.target.name, in.header.index,
                                       in.header.count);
    fs::create_directories(dir.parent_path());
    if (!fs::create_directory(dir)) {
      throw std::invalid_argument(fmt::format(
          "{} exists: this share of the run has already run (a share never runs twice)",
          dir.string()));
    }
    suites::write_shard_header(dir, in.header);
  } catch (const std::exception& e) {
    std::cerr << "loiter: " << e.what() << "\n";
    return kUsage;
  }
  suites::install_interrupt_handlers();
  if (!in.server.address().is_loopback()) clients::allow_remote_target(in.server.address());
  if (in.server.address().is_v4() && in.header.count > 1) {
    clients::set_source_block(static_cast<unsigned>(in.header.index % 255 + 1));
  }
  auto& h = in.header;
  const auto finish = [&](const std::string& status, int code) {
    h.status = status;
    try {
      suites::write_shard_header(dir, h);
    } catch (const std::exception& e) {
      std::cerr << "loiter: " << e.what() << "\n";
      return kInfrastructure;
    }
    return code;
  };
  if (!wait_until(steady_of(h.start_at) - kReadyLead)) return finish("interrupted", kInterrupted);
  const auto origin = steady_of(h.start_at);
  // How much later than planned (kReadyLead before the start) the clients got their timeline:
  // the wake's lateness when the shard was ready in time; more when it came late.
  h.lag = std::max<clients::Duration>(clients::Duration{},
                                      clients::Clock::now() - (origin - kReadyLead));
  h.clients_from = WallClock::now();
  h.status = "running";
  suites::ShardOutput out;
  try {
    suites::write_shard_header(dir, h);
    out = suites::drive_shard(*in.scenario, in.target, plain_endpoint(in.server), in.expected, in.timing,
                              in.parameters, in.share, origin);
    h.ended = WallClock::now();
    h.fleets = out.fleets;
    h.records = out.records.size();
    h.client_processes = out.client_processes;
    h.stopped_early = out.stopped_early;
    suites::write_shard_output(dir, out, origin);
  } catch (const std::exception& e) {
    h.error = e.what();
    std::cerr << "loiter: shard " << h.index << " of " << h.count << ": " << e.what() << "\n";
    return finish("failed", kInfrastructure);
  }
  const bool interrupted = out.interrupted;
  const int code = finish(interrupted ? "interrupted" : "complete",
                          interrupted || suites::interrupted() ? kInterrupted : kPassed);
  print_done(in, out, dir);
  return code;
}

}  // namespace loiter::cli
