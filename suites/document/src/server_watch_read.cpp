// A server watch's directory read back: observe.json, then samples.jsonl line by line (a
// torn last line left out and said so).
#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loiter/suites/document/raw_json.hpp"
#include "loiter/suites/document/server_watch.hpp"

namespace loiter::suites {

namespace fs = std::filesystem;
namespace json = boost::json;
using std::chrono::system_clock;

namespace {

system_clock::time_point from_unix(double seconds) {
  return system_clock::time_point(std::chrono::duration_cast<system_clock::duration>(
      std::chrono::microseconds(std::llround(seconds * 1e6))));
}

std::string whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error(
        fmt::format("{}: cannot be read (is it a watch directory?)", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The header's field `key`; `what` names the file in errors.
const json::value& header_field(const json::object& header, std::string_view key,
                                const std::string& what) {
  const auto* value = header.if_contains(key);
  if (value == nullptr) throw std::runtime_error(fmt::format("{}: \"{}\" is missing", what, key));
  return *value;
}

double number_at(const json::value& value, std::string_view key, const std::string& what) {
  if (!value.is_number())
    throw std::runtime_error(fmt::format("{}: \"{}\" is not a number", what, key));
  return value.to_number<double>();
}

std::string text_or_empty(const json::value& value, std::string_view key, const std::string& what) {
  if (value.is_null()) return {};
  if (!value.is_string())
    throw std::runtime_error(fmt::format("{}: \"{}\" is not a string", what, key));
  return std::string(value.get_string());
}

ServerWatch read_header(const fs::path& path) {
  const auto what = path.string();
  json::value parsed;
  try {
    parsed = json::parse(whole_file(path));
  } catch (const std::system_error& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", what, e.what()));
  }
  if (!parsed.is_object()) throw std::runtime_error(fmt::format("{}: not a JSON object", what));
  const auto& h = parsed.get_object();
  ServerWatch watch;
  watch.loiter_version =
      text_or_empty(header_field(h, "loiter_version", what), "loiter_version", what);
  watch.pid = static_cast<long>(number_at(header_field(h, "pid", what), "pid", what));
  if (const auto& port = header_field(h, "port", what); !port.is_null())
    watch.port = static_cast<unsigned short>(number_at(port, "port", what));
  watch.host = text_or_empty(header_field(h, "host", what), "host", what);
  if (const auto& target = header_field(h, "target", what); !target.is_null())
    watch.target = text_or_empty(target, "target", what);
  watch.started = from_unix(number_at(header_field(h, "started_unix", what), "started_unix", what));
  watch.period = std::chrono::milliseconds(
      static_cast<long long>(number_at(header_field(h, "period_ms", what), "period_ms", what)));
  if (const auto& ended = header_field(h, "ended_unix", what); !ended.is_null()) {
    watch.ended = from_unix(number_at(ended, "ended_unix", what));
    const auto text = text_or_empty(header_field(h, "ended_by", what), "ended_by", what);
    const auto ending = watch_ending_of(text);
    if (!ending) {
      throw std::runtime_error(fmt::format(
          "{}: \"ended_by\" is \"{}\", not duration, interrupt or server-exited", what, text));
    }
    watch.ended_by = *ending;
  }
  return watch;
}

WallSample read_line(const std::string& line, const std::string& where) {
  try {
    const auto value = json::parse(line);
    if (!value.is_object() || !value.get_object().contains("unix") ||
        !value.get_object().at("unix").is_number()) {
      throw std::runtime_error("\"unix\" is missing or not a number");
    }
    return {from_unix(value.get_object().at("unix").to_number<double>()), sample_from_json(value)};
  } catch (const std::exception& e) {  // a parse error (system_error) or a field
    throw std::runtime_error(fmt::format("{}: {}", where, e.what()));
  }
}

}  // namespace

ServerWatch read_server_watch(const fs::path& dir) {
  ServerWatch watch = read_header(dir / kWatchHeaderFile);
  const auto path = dir / kWatchSamplesFile;
  const auto text = whole_file(path);
  std::size_t begin = 0;
  for (std::size_t number = 1; begin < text.size(); ++number) {
    const auto end = text.find('\n', begin);
    if (end == std::string::npos) {  // no newline: the observer was killed mid-line
      watch.torn_tail = true;
      break;
    }
    const auto line = text.substr(begin, end - begin);
    begin = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    watch.samples.push_back(read_line(line, fmt::format("{}:{}", path.string(), number)));
  }
  if (watch.ended_by == WatchEnding::none) {  // no end written: the last sample is the last known
    watch.ended = watch.samples.empty() ? watch.started : watch.samples.back().at;
  }
  return watch;
}

}  // namespace loiter::suites
