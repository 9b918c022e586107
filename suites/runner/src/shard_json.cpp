// shard.json's form: described structs whose members are the file's keys, in its order,
// which the codec (reports/described_json.hpp) writes and reads, converted here from and to
// ShardHeader and ShardPlan. Numbers that were doubles stay doubles (AsDouble: 1E0, not 1):
// the plan's hash is of these bytes.
#include "shard_json.hpp"

#include <fmt/format.h>

#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "loiter/fixtures/provenance.hpp"
#include "loiter/reports/described_json.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites::shard_file {

using reports::described::AsDouble;

// clients::Churn: shares of the requests, and after how many a connection is replaced.
struct Churn {
  AsDouble fresh, server_close, abort;
  std::size_t replace_every = 0;
  std::string abort_path;
};
BOOST_DESCRIBE_STRUCT(Churn, (), (fresh, server_close, abort, replace_every, abort_path))

// ShardPlan, its parameters among its own keys; the load's duration in seconds.
struct Plan {
  std::string scenario, target, target_sha256;
  std::vector<std::string> set;
  std::string server;
  std::size_t count = 0;
  AsDouble load_rate, load_duration_s;
  std::size_t load_connections = 0;
  std::optional<Churn> churn;
  AsDouble scale;
  std::string loiter_version;
};
BOOST_DESCRIBE_STRUCT(Plan, (),
                      (scenario, target, target_sha256, set, server, count, load_rate,
                       load_duration_s, load_connections, churn, scale, loiter_version))

// ShardHeader: the shared start both in RFC 3339 and in unix seconds (the one read back),
// the other moments in unix seconds, the lag in seconds.
struct Header {
  Plan plan;
  std::string plan_hash;
  std::size_t shard = 0, shards = 1;
  std::string start_at;
  AsDouble start_at_unix;
  ShardStatus status = ShardStatus::waiting;
  std::string error;
  std::optional<AsDouble> lag_s, ended_unix, clients_from_unix;
  std::vector<std::size_t> fleets;
  std::size_t records = 0, client_processes = 1;
  bool stopped_early = false;
  std::string host;
  long pid = 0;
};
BOOST_DESCRIBE_STRUCT(Header, (),
                      (plan, plan_hash, shard, shards, start_at, start_at_unix, status, error,
                       lag_s, ended_unix, clients_from_unix, fleets, records, client_processes,
                       stopped_early, host, pid))

inline constexpr ShardStatus kStatuses[] = {ShardStatus::waiting, ShardStatus::running,
                                            ShardStatus::complete, ShardStatus::interrupted,
                                            ShardStatus::failed};

}  // namespace loiter::suites::shard_file

// A status in its words: "waiting", "running", "complete", "interrupted", "failed".
template <>
struct loiter::reports::described::Codec<loiter::suites::ShardStatus>
    : EnumWords<suites::ShardStatus, suites::shard_file::kStatuses> {};

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

namespace {

double unix_seconds(WallClock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

WallClock::time_point from_unix(double s) {
  return WallClock::time_point(
      std::chrono::duration_cast<WallClock::duration>(std::chrono::duration<double>(s)));
}

clients::Duration from_seconds(double s) {
  return std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(s));
}

std::optional<shard_file::Churn> churn_file(const std::optional<clients::Churn>& churn) {
  if (!churn) return std::nullopt;
  return shard_file::Churn{.fresh = {churn->fresh},
                           .server_close = {churn->server_close},
                           .abort = {churn->abort},
                           .replace_every = churn->replace_every,
                           .abort_path = churn->abort_path};
}

std::optional<clients::Churn> churn_of(const std::optional<shard_file::Churn>& churn) {
  if (!churn) return std::nullopt;
  return clients::Churn{.fresh = churn->fresh.value,
                        .server_close = churn->server_close.value,
                        .abort = churn->abort.value,
                        .replace_every = churn->replace_every,
                        .abort_path = churn->abort_path};
}

shard_file::Plan plan_file(const ShardPlan& plan) {
  const auto& p = plan.parameters;
  return {.scenario = plan.scenario,
          .target = plan.target,
          .target_sha256 = plan.target_sha256,
          .set = plan.settings,
          .server = plan.server,
          .count = p.count,
          .load_rate = {p.load_rate},
          .load_duration_s = {in_seconds(p.load_duration)},
          .load_connections = p.load_connections,
          .churn = churn_file(p.churn),
          .scale = {plan.scale},
          .loiter_version = plan.loiter_version};
}

ShardPlan plan_of(const shard_file::Plan& file) {
  ShardPlan plan{.scenario = file.scenario,
                 .target = file.target,
                 .target_sha256 = file.target_sha256,
                 .settings = file.set,
                 .server = file.server,
                 .parameters = {},
                 .scale = file.scale.value,
                 .loiter_version = file.loiter_version};
  plan.parameters.count = file.count;
  plan.parameters.load_rate = file.load_rate.value;
  plan.parameters.load_duration = from_seconds(file.load_duration_s.value);
  plan.parameters.load_connections = file.load_connections;
  plan.parameters.churn = churn_of(file.churn);
  return plan;
}

// A span in seconds, or none.
std::optional<described::AsDouble> seconds_file(const std::optional<clients::Duration>& d) {
  if (!d) return std::nullopt;
  return described::AsDouble{in_seconds(*d)};
}

// A moment in unix seconds, or none.
std::optional<described::AsDouble> unix_file(const std::optional<WallClock::time_point>& t) {
  if (!t) return std::nullopt;
  return described::AsDouble{unix_seconds(*t)};
}

std::optional<WallClock::time_point> unix_of(const std::optional<described::AsDouble>& s) {
  if (!s) return std::nullopt;
  return from_unix(s->value);
}

}  // namespace

json::value header_to_json(const ShardHeader& h) {
  return described::write(shard_file::Header{.plan = plan_file(h.plan),
                                             .plan_hash = h.plan_hash,
                                             .shard = h.index,
                                             .shards = h.count,
                                             .start_at = format_utc(h.start_at),
                                             .start_at_unix = {unix_seconds(h.start_at)},
                                             .status = h.status,
                                             .error = h.error,
                                             .lag_s = seconds_file(h.lag),
                                             .ended_unix = unix_file(h.ended),
                                             .clients_from_unix = unix_file(h.clients_from),
                                             .fleets = h.fleets,
                                             .records = h.records,
                                             .client_processes = h.client_processes,
                                             .stopped_early = h.stopped_early,
                                             .host = h.host,
                                             .pid = h.pid});
}

ShardHeader header_from_json(const json::value& v) {
  const auto file = described::read<shard_file::Header>(v);
  return {.plan = plan_of(file.plan),
          .plan_hash = file.plan_hash,
          .index = file.shard,
          .count = file.shards,
          .start_at = from_unix(file.start_at_unix.value),
          .status = file.status,
          .error = file.error,
          .lag = file.lag_s ? std::optional(from_seconds(file.lag_s->value)) : std::nullopt,
          .clients_from = unix_of(file.clients_from_unix),
          .ended = unix_of(file.ended_unix),
          .fleets = file.fleets,
          .records = file.records,
          .client_processes = file.client_processes,
          .stopped_early = file.stopped_early,
          .host = file.host,
          .pid = file.pid};
}

json::value plan_to_json(const ShardPlan& plan) { return described::write(plan_file(plan)); }

ShardPlan plan_from_json(const json::value& v) {
  try {
    return plan_of(described::read<shard_file::Plan>(v));
  } catch (const std::exception& e) {
    throw std::invalid_argument(fmt::format("a shard plan cannot be read: {}", e.what()));
  }
}

std::string plan_hash(const ShardPlan& plan) {
  return fixtures::sha256_of_text(json::serialize(plan_to_json(plan))).substr(0, 16);
}

}  // namespace loiter::suites
