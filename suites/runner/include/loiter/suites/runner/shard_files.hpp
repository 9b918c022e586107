// A shard's directory (loiter check --shard k/K), what the merge reads:
//   shard.json     the plan every shard must share, its hash, k of K, the shared start, how
//                  the shard went (status, start lag, end), written again as it goes
//   records.jsonl  its connections, one a line with fleet and index (client_lines.hpp's form)
//   load.json      its share of the regular traffic, whole (load_json.hpp), when it ran any
// Times in the files are on the shared start: seconds (records) or ns (load) after it.
#pragma once

#include <boost/json/value.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/load/load_result.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/client_lines.hpp"
#include "loiter/suites/runner/shard_run.hpp"

namespace loiter::suites {

using WallClock = std::chrono::system_clock;

// What every shard of one run must agree on; K and the start are beside it, so one plan run
// as 1 or as 4 shards has one hash.
struct ShardPlan {
  std::string scenario;
  std::string target;         // as the command line named it: a bundled name or a file
  std::string target_sha256;  // of that file's bytes; empty for a bundled target
  // The target file's keys the command line set ("deadlines.header=1", --set and its
  // sugar, in order): each shard and the merge build the same target from them.
  std::vector<std::string> settings;
  std::string server;         // "host:port" the shards connect to
  ScenarioParameters parameters;  // resolved: count, regular traffic, churn
  double scale = 1.0;             // the timing's time-scale factor
  std::string loiter_version;
};

boost::json::value plan_to_json(const ShardPlan& plan);
ShardPlan plan_from_json(const boost::json::value& json);  // throws std::invalid_argument
// The first 16 hex digits of the SHA-256 of the plan's JSON.
std::string plan_hash(const ShardPlan& plan);

// Where a shard is: waiting for the shared start, running, then one of three ends.
enum class ShardStatus { waiting, running, complete, interrupted, failed };

// "waiting", "running", "complete", "interrupted" (Ctrl-C), "failed": as shard.json says it.
std::string_view to_string(ShardStatus status);
// The inverse; throws std::invalid_argument naming an unknown status.
ShardStatus shard_status_from(std::string_view text);

struct ShardHeader {
  ShardPlan plan;
  std::string plan_hash;
  std::size_t index = 0, count = 1;  // shard k of K
  WallClock::time_point start_at;    // the shared start
  ShardStatus status = ShardStatus::waiting;
  std::string error;                         // why it failed
  std::optional<clients::Duration> lag;      // its clients started this long after start_at
  // When it handed its clients their timeline (a moment before start_at): from then on they
  // may connect (a load's pool opens ahead of its schedule), so the server is at rest before.
  std::optional<WallClock::time_point> clients_from;
  std::optional<WallClock::time_point> ended;  // its clients ended
  std::vector<std::size_t> fleets;           // each fleet's whole size
  std::size_t records = 0;                   // lines in records.jsonl
  std::size_t client_processes = 1;
  bool stopped_early = false;  // a soak stopped by the user: its schedule ended early
  std::string host;            // the machine's name
  long pid = 0;
};

// A name as a directory name: letters, digits, '.', '_', '+', '-' kept, anything else '_'
// ("run" for an empty one). How run and shard directories name their target.
std::string file_safe(std::string_view name);

// "<start stamp>-<target>-shard-<k>-of-<K>", the stamp YYYYMMDDTHHMMSSZ of the start, the
// target file_safe().
std::string shard_directory_name(WallClock::time_point start_at, std::string_view target,
                                 std::size_t index, std::size_t count);

// RFC 3339 UTC with whole seconds ("2026-12-02T10:00:00Z") and back; parse_utc takes only
// that form (what format_utc prints back) and throws std::invalid_argument naming the text.
std::string format_utc(WallClock::time_point t);
WallClock::time_point parse_utc(std::string_view text);
// parse_utc of a command-line option's value, its error prefixed by the option's name.
WallClock::time_point parse_utc_option(std::string_view option, std::string_view text);
// The same moment as directories name it: "20261202T100000Z".
std::string utc_stamp(WallClock::time_point t);

// Writes shard.json (whole or not at all: a new file renamed over the old). Throws
// std::runtime_error naming the path.
void write_shard_header(const std::filesystem::path& dir, const ShardHeader& header);
// Writes records.jsonl and load.json. Throws std::runtime_error naming the path.
void write_shard_output(const std::filesystem::path& dir, const ShardOutput& output,
                        clients::Clock::time_point origin);

struct ShardData {
  std::filesystem::path dir;
  ShardHeader header;
  std::vector<FleetRecord> records;  // as many as records.jsonl held (whole lines)
  std::optional<clients::LoadResult> load;
};

ShardHeader read_shard_header(const std::filesystem::path& dir);
// Records and load on `origin` (the steady time taken to be the shared start). Throws
// std::runtime_error naming the file and line for anything unreadable.
ShardData read_shard(const std::filesystem::path& dir, clients::Clock::time_point origin);

}  // namespace loiter::suites
