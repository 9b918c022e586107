// A shard's directory: its header (shard.json, its form in shard_json.cpp), records
// (records.jsonl) and load (load.json), written by the shard and read by the merge; the
// names and UTC times the directories and the command line use.
#include "loiter/suites/runner/shard_files.hpp"

#include <fmt/format.h>
#include <time.h>

#include <array>
#include <boost/json.hpp>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/load_json.hpp"
#include "shard_json.hpp"

namespace loiter::suites {

namespace json = boost::json;
namespace fs = std::filesystem;

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
  return fmt::format("{}-{}-shard-{}-of-{}", utc_stamp(start_at), file_safe(target), index, count);
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
    return header_from_json(json::parse(read_file(path)));
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
