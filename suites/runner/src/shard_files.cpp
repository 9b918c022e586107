// A shard's directory: its plan and header (shard.json), records (records.jsonl) and load
// (load.json), written by the shard and read by the merge.
#include "loiter/suites/runner/shard_files.hpp"

#include <fmt/format.h>
#include <time.h>

#include <boost/json.hpp>
#include <array>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/load_json.hpp"

namespace loiter::suites {

namespace json = boost::json;
namespace fs = std::filesystem;

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

json::value churn_to_json(const std::optional<clients::Churn>& churn) {
  if (!churn) return nullptr;
  return json::object{{"fresh", churn->fresh},
                      {"server_close", churn->server_close},
                      {"abort", churn->abort},
                      {"replace_every", churn->replace_every},
                      {"abort_path", churn->abort_path}};
}

std::optional<clients::Churn> churn_from(const json::value& v) {
  if (v.is_null()) return std::nullopt;
  const auto& o = v.as_object();
  return clients::Churn{.fresh = json::value_to<double>(o.at("fresh")),
                        .server_close = json::value_to<double>(o.at("server_close")),
                        .abort = json::value_to<double>(o.at("abort")),
                        .replace_every = json::value_to<std::size_t>(o.at("replace_every")),
                        .abort_path = std::string(o.at("abort_path").as_string())};
}

json::value header_to_json(const ShardHeader& h) {
  json::array fleets;
  for (const auto n : h.fleets) fleets.push_back(n);
  return json::object{
      {"plan", plan_to_json(h.plan)},
      {"plan_hash", h.plan_hash},
      {"shard", h.index},
      {"shards", h.count},
      {"start_at", format_utc(h.start_at)},
      {"start_at_unix", unix_seconds(h.start_at)},
      {"status", to_string(h.status)},
      {"error", h.error},
      {"lag_s", h.lag ? json::value(in_seconds(*h.lag)) : json::value(nullptr)},
      {"ended_unix", h.ended ? json::value(unix_seconds(*h.ended)) : json::value(nullptr)},
      {"clients_from_unix",
       h.clients_from ? json::value(unix_seconds(*h.clients_from)) : json::value(nullptr)},
      {"fleets", std::move(fleets)},
      {"records", h.records},
      {"client_processes", h.client_processes},
      {"stopped_early", h.stopped_early},
      {"host", h.host},
      {"pid", h.pid}};
}

ShardHeader header_from(const json::object& o) {
  ShardHeader h;
  h.plan = plan_from_json(o.at("plan"));
  h.plan_hash = std::string(o.at("plan_hash").as_string());
  h.index = json::value_to<std::size_t>(o.at("shard"));
  h.count = json::value_to<std::size_t>(o.at("shards"));
  h.start_at = from_unix(json::value_to<double>(o.at("start_at_unix")));
  h.status = shard_status_from(o.at("status").as_string());
  h.error = std::string(o.at("error").as_string());
  if (!o.at("lag_s").is_null()) h.lag = from_seconds(json::value_to<double>(o.at("lag_s")));
  if (!o.at("ended_unix").is_null()) h.ended = from_unix(json::value_to<double>(o.at("ended_unix")));
  if (!o.at("clients_from_unix").is_null()) {
    h.clients_from = from_unix(json::value_to<double>(o.at("clients_from_unix")));
  }
  for (const auto& n : o.at("fleets").as_array()) h.fleets.push_back(json::value_to<std::size_t>(n));
  h.records = json::value_to<std::size_t>(o.at("records"));
  h.client_processes = json::value_to<std::size_t>(o.at("client_processes"));
  h.stopped_early = o.at("stopped_early").as_bool();
  h.host = std::string(o.at("host").as_string());
  h.pid = json::value_to<long>(o.at("pid"));
  return h;
}

}  // namespace

json::value plan_to_json(const ShardPlan& plan) {
  const auto& p = plan.parameters;
  return json::object{{"scenario", plan.scenario},
                      {"target", plan.target},
                      {"target_sha256", plan.target_sha256},
                      {"set", json::value_from(plan.settings)},
                      {"server", plan.server},
                      {"count", p.count},
                      {"load_rate", p.load_rate},
                      {"load_duration_s", in_seconds(p.load_duration)},
                      {"load_connections", p.load_connections},
                      {"churn", churn_to_json(p.churn)},
                      {"scale", plan.scale},
                      {"loiter_version", plan.loiter_version}};
}

ShardPlan plan_from_json(const json::value& v) {
  try {
    const auto& o = v.as_object();
    ShardPlan plan{.scenario = std::string(o.at("scenario").as_string()),
                   .target = std::string(o.at("target").as_string()),
                   .target_sha256 = std::string(o.at("target_sha256").as_string()),
                   .settings = json::value_to<std::vector<std::string>>(o.at("set")),
                   .server = std::string(o.at("server").as_string()),
                   .parameters = {},
                   .scale = json::value_to<double>(o.at("scale")),
                   .loiter_version = std::string(o.at("loiter_version").as_string())};
    auto& p = plan.parameters;
    p.count = json::value_to<std::size_t>(o.at("count"));
    p.load_rate = json::value_to<double>(o.at("load_rate"));
    p.load_duration = from_seconds(json::value_to<double>(o.at("load_duration_s")));
    p.load_connections = json::value_to<std::size_t>(o.at("load_connections"));
    p.churn = churn_from(o.at("churn"));
    return plan;
  } catch (const std::exception& e) {
    throw std::invalid_argument(fmt::format("a shard plan cannot be read: {}", e.what()));
  }
}

std::string plan_hash(const ShardPlan& plan) {
  return fixtures::sha256_of_text(json::serialize(plan_to_json(plan))).substr(0, 16);
}

std::string format_utc(WallClock::time_point t) {
  const std::time_t seconds = WallClock::to_time_t(t);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

WallClock::time_point parse_utc(std::string_view text) {
  std::tm tm{};
  char zone = 0;
  char rest = 0;
  const std::string s(text);
  const int got = std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%c", &tm.tm_year, &tm.tm_mon,
                              &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &zone, &rest);
  if (got != 7 || zone != 'Z' || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
      tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60) {
    throw std::invalid_argument(fmt::format(
        "'{}' is not a UTC time in RFC 3339 with whole seconds, like 2026-12-02T10:00:00Z", text));
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const auto t = WallClock::from_time_t(::timegm(&tm));
  if (format_utc(t) != s) {  // one digit short, or a day that does not exist (02-31)
    throw std::invalid_argument(fmt::format(
        "'{}' is not a UTC time in RFC 3339 with whole seconds, like 2026-12-02T10:00:00Z", text));
  }
  return t;
}

WallClock::time_point parse_utc_option(std::string_view option, std::string_view text) {
  try {
    return parse_utc(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: {}", option, e.what()));
  }
}

std::string utc_stamp(WallClock::time_point t) {
  std::string stamp = format_utc(t);  // 2026-12-02T10:00:00Z -> 20261202T100000Z
  std::erase(stamp, '-');
  std::erase(stamp, ':');
  return stamp;
}

namespace {
constexpr std::array<std::pair<ShardStatus, std::string_view>, 5> kStatuses{{
    {ShardStatus::waiting, "waiting"},
    {ShardStatus::running, "running"},
    {ShardStatus::complete, "complete"},
    {ShardStatus::interrupted, "interrupted"},
    {ShardStatus::failed, "failed"},
}};
}  // namespace

std::string_view to_string(ShardStatus status) {
  for (const auto& [s, text] : kStatuses) {
    if (s == status) return text;
  }
  return "?";
}

ShardStatus shard_status_from(std::string_view text) {
  for (const auto& [s, known] : kStatuses) {
    if (known == text) return s;
  }
  throw std::invalid_argument(fmt::format("unknown shard status '{}'", text));
}

std::string file_safe(std::string_view name) {
  std::string out(name);
  for (auto& c : out) {
    const bool ok =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-';
    if (!ok) c = '_';
  }
  return out.empty() ? "run" : out;
}

std::string shard_directory_name(WallClock::time_point start_at, std::string_view target,
                                 std::size_t index, std::size_t count) {
  return fmt::format("{}-{}-shard-{}-of-{}", utc_stamp(start_at), file_safe(target), index,
                     count);
}

void write_shard_header(const fs::path& dir, const ShardHeader& header) {
  const auto path = dir / "shard.json";
  const auto fresh = dir / "shard.json.new";
  write_file(fresh, json::serialize(header_to_json(header)) + "\n");
  std::error_code ec;
  fs::rename(fresh, path, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), ec.message()));
}

void write_shard_output(const fs::path& dir, const ShardOutput& output,
                        clients::Clock::time_point origin) {
  std::string lines;
  for (const auto& r : output.records) lines += record_line(r.fleet, r.index, r.record, origin);
  write_file(dir / "records.jsonl", lines);
  if (output.load) {
    write_file(dir / "load.json", json::serialize(load_to_json(*output.load, origin)) + "\n");
  }
}

ShardHeader read_shard_header(const fs::path& dir) {
  const auto path = dir / "shard.json";
  try {
    return header_from(json::parse(read_file(path)).as_object());
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

ShardData read_shard(const fs::path& dir, clients::Clock::time_point origin) {
  ShardData data{.dir = dir, .header = read_shard_header(dir), .records = {}, .load = {}};
  const auto records = dir / "records.jsonl";
  if (fs::exists(records)) {
    std::istringstream in(read_file(records));
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
      try {
        auto parsed = parse_client_line(line, origin);
        auto* record = std::get_if<FleetRecord>(&parsed);
        if (!record) throw std::invalid_argument("not a connection record");
        data.records.push_back(std::move(*record));
      } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("{} line {}: {}", records.string(), n, e.what()));
      }
    }
  }
  const auto load = dir / "load.json";
  if (fs::exists(load)) {
    try {
      data.load = load_from_json(json::parse(read_file(load)), origin);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}: {}", load.string(), e.what()));
    }
  }
  return data;
}

}  // namespace loiter::suites
