// A server watch's directory read back: observe.json (its form in watch_file.hpp, read by the
// codec), then samples.jsonl line by line (a torn last line left out and said so).
#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loiter/suites/document/raw_json.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "watch_file.hpp"

namespace loiter::suites {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace described = reports::described;
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

ServerWatch read_header(const fs::path& path) {
  const auto what = path.string();
  json::value parsed;
  try {
    parsed = json::parse(whole_file(path));
  } catch (const std::system_error& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", what, e.what()));
  }
  watch_file::Header header;
  try {
    header = described::read<watch_file::Header>(parsed);
  } catch (const described::ReadError& e) {
    throw std::runtime_error(fmt::format("{}: {}", what, e.what()));
  }
  ServerWatch watch{.loiter_version = header.loiter_version,
                    .pid = header.pid,
                    .port = header.port,
                    .host = header.host.value_or(""),
                    .target = header.target,
                    .started = from_unix(header.started_unix),
                    .period = std::chrono::milliseconds(header.period_ms)};
  if (header.ended_unix) {
    if (!header.ended_by) {
      throw std::runtime_error(fmt::format("{}: \"ended_unix\" without \"ended_by\"", what));
    }
    watch.ended = from_unix(*header.ended_unix);
    watch.ended_by = *header.ended_by;
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
