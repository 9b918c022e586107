// shard.json's form: ShardHeader and ShardPlan described here in the file's order, which the
// codec (reports/described_json.hpp) writes and reads. A plan's parameters are among its own
// keys; numbers that were doubles stay doubles (1E0, not 1): the plan's hash is of these bytes.
// The shared start is in RFC 3339 and in unix seconds (the one read back), the other moments
// in unix seconds, the lag in seconds.
#include "shard_json.hpp"

#include <fmt/format.h>

#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <stdexcept>
#include <string>

#include "loiter/fixtures/provenance.hpp"
#include "loiter/reports/described_json.hpp"

namespace loiter::clients {
BOOST_DESCRIBE_STRUCT(Churn, (), (fresh, server_close, abort, replace_every, abort_path))
}  // namespace loiter::clients

namespace loiter::suites {
// Those of its parameters every shard shares.
BOOST_DESCRIBE_STRUCT(ScenarioParameters, (),
                      (count, load_rate, load_duration, load_connections, churn))
BOOST_DESCRIBE_STRUCT(ShardPlan, (),
                      (scenario, target, target_sha256, settings, server, parameters, scale,
                       loiter_version))
BOOST_DESCRIBE_STRUCT(ShardHeader, (),
                      (plan, plan_hash, index, count, start_at, status, error, lag, ended,
                       clients_from, fleets, records, client_processes, stopped_early, host, pid))

namespace shard_file {

inline constexpr ShardStatus kStatuses[] = {ShardStatus::waiting, ShardStatus::running,
                                            ShardStatus::complete, ShardStatus::interrupted,
                                            ShardStatus::failed};

double unix_seconds(WallClock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

// A moment in unix seconds, a double, under the member's name and "_unix".
struct UnixSeconds {
  static constexpr const char* kSuffix = "_unix";
  static boost::json::value write(WallClock::time_point t) { return unix_seconds(t); }
  static WallClock::time_point read(const boost::json::value& json) {
    return WallClock::time_point(std::chrono::duration_cast<WallClock::duration>(
        std::chrono::duration<double>(reports::described::read<double>(json))));
  }
};

// The shared start as people read it (RFC 3339), beside its unix seconds.
struct Utc {
  static boost::json::value write(WallClock::time_point t) {
    return boost::json::string(format_utc(t));
  }
  static WallClock::time_point read(const boost::json::value& json) {
    try {
      return parse_utc(reports::described::read<std::string>(json));
    } catch (const std::invalid_argument& e) {
      throw reports::described::ReadError("", e.what());
    }
  }
};

}  // namespace shard_file
}  // namespace loiter::suites

namespace loiter::reports::described {

using clients::Churn;
using suites::ScenarioParameters;
using suites::ShardHeader;
using suites::ShardPlan;

// A status in its words: "waiting", "running", "complete", "interrupted", "failed".
template <>
struct Codec<suites::ShardStatus> : EnumWords<suites::ShardStatus, suites::shard_file::kStatuses> {
};

template <>
inline constexpr auto kForms<Churn> = std::tuple(As<&Churn::fresh, Float>{},
                                                 As<&Churn::server_close, Float>{},
                                                 As<&Churn::abort, Float>{});
// load_duration_s.
template <>
inline constexpr auto kForms<ScenarioParameters> =
    std::tuple(As<&ScenarioParameters::load_rate, Float>{},
               As<&ScenarioParameters::load_duration, FloatSeconds<clients::Duration>>{});
template <>
inline constexpr auto kInline<ShardPlan> = std::tuple(&ShardPlan::parameters);
template <>
inline constexpr const char* kKey<&ShardPlan::settings> = "set";
template <>
inline constexpr auto kForms<ShardPlan> = std::tuple(As<&ShardPlan::scale, Float>{});
// lag_s, ended_unix, clients_from_unix.
template <>
inline constexpr auto kForms<ShardHeader> =
    std::tuple(As<&ShardHeader::start_at, suites::shard_file::Utc>{},
               As<&ShardHeader::lag, FloatSeconds<clients::Duration>>{},
               As<&ShardHeader::ended, suites::shard_file::UnixSeconds>{},
               As<&ShardHeader::clients_from, suites::shard_file::UnixSeconds>{});
template <>
inline constexpr const char* kKey<&ShardHeader::index> = "shard";
template <>
inline constexpr const char* kKey<&ShardHeader::count> = "shards";

// start_at_unix, right after start_at; the start read back is it.
template <>
struct Amend<ShardHeader> {
  static void write(const ShardHeader& header, json::object& out) {
    json::object ordered;
    for (auto& [key, value] : out) {
      ordered[key] = std::move(value);
      if (key == "start_at") {
        ordered["start_at_unix"] = suites::shard_file::unix_seconds(header.start_at);
      }
    }
    out = std::move(ordered);
  }
  static void read(const json::object& object, ShardHeader& header) {
    const auto* unix = object.if_contains("start_at_unix");
    if (unix == nullptr) throw ReadError("", "missing key 'start_at_unix'");
    try {
      header.start_at = suites::shard_file::UnixSeconds::read(*unix);
    } catch (const ReadError& e) {
      throw ReadError("", "key 'start_at_unix' " + e.problem());
    }
  }
};

}  // namespace loiter::reports::described

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

json::value header_to_json(const ShardHeader& h) { return described::write(h); }

ShardHeader header_from_json(const json::value& v) { return described::read<ShardHeader>(v); }

json::value plan_to_json(const ShardPlan& plan) { return described::write(plan); }

ShardPlan plan_from_json(const json::value& v) {
  try {
    return described::read<ShardPlan>(v);
  } catch (const std::exception& e) {
    throw std::invalid_argument(fmt::format("a shard plan cannot be read: {}", e.what()));
  }
}

std::string plan_hash(const ShardPlan& plan) {
  return fixtures::sha256_of_text(json::serialize(plan_to_json(plan))).substr(0, 16);
}

}  // namespace loiter::suites
