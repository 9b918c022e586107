// One shard of a run split over machines (loiter check --shard k/K), from its directory's
// first shard.json to its last: the directory made (a share never runs twice), the wait for
// the shared start, the lag, the status as it goes ("waiting", "running", then "complete",
// "interrupted" or "failed"), the share's clients driven and their output written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/transport/share.hpp"
#include "loiter/fixtures/probe/endpoint.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::suites {

// A shard as planned, every input checked.
struct ShardJob {
  const Scenario* scenario = nullptr;
  fixtures::Target target;
  Timing timing;
  ScenarioParameters parameters;  // resolved
  Expectations expected;
  clients::FleetShare share;
  fixtures::TcpEndpoint server;  // an IP address (a name already resolved) and its port
  ShardHeader header;  // as shard_header() made it: status "waiting"
};

// What the command line asks of a shard, its inputs parsed: the one scenario, the target as
// built, the parameters asked, this shard's share, the shared start, the server, and the
// plan's words for what was named (the target as typed, the keys set, the server's text).
struct ShardAsk {
  std::string scenario;
  fixtures::Target target;
  ScenarioParameters asked;
  clients::FleetShare share;
  WallClock::time_point start_at;
  fixtures::TcpEndpoint server;
  std::string target_named;           // a bundled name or a file (hashed when a file)
  std::vector<std::string> settings;  // "deadlines.header=1", in order
  std::string server_named;           // "host:port"
  std::string loiter_version;
};

// The shard planned: its scenario chosen, its parameters resolved, its share's count and
// regular traffic checked, its expectations and first shard.json made. Throws
// std::invalid_argument saying what cannot run.
ShardJob plan_shard(const ShardAsk& ask);

// The first shard.json of share `share` of `plan`, starting at `start_at`, on this machine
// (its host name and PID).
ShardHeader shard_header(ShardPlan plan, clients::FleetShare share, WallClock::time_point start_at);

// Makes the shard's directory under `runs_root` and writes its first shard.json. Throws
// std::invalid_argument when the directory exists (this share has run already), and
// std::runtime_error (or std::filesystem::filesystem_error) naming a path that cannot be made
// or written.
std::filesystem::path make_shard_directory(const std::filesystem::path& runs_root,
                                           const ShardJob& job);

struct ShardRun {
  ShardHeader header;                 // as last written: status, lag, error
  std::optional<ShardOutput> output;  // when its clients were driven and their output written
  // What went wrong, in the order it did: the shard's failure ("shard k of K: ..."), a
  // shard.json that could not be written.
  std::vector<std::string> errors;
  bool header_written = true;  // the last status is in shard.json
};

// Waits for the shared start (Ctrl-C ends the wait: "interrupted"), drives the share against
// its server, writes its output and each status to `dir`. A harness fault does not throw:
// the shard is "failed", with the fault in its shard.json and in `errors`.
ShardRun run_shard(ShardJob job, const std::filesystem::path& dir);

}  // namespace loiter::suites
