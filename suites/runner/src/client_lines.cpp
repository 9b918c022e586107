#include "loiter/suites/runner/client_lines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <stdexcept>

#include "loiter/suites/runner/record_json.hpp"

namespace loiter::suites {

namespace json = boost::json;

namespace {

std::string line_of(const json::value& v) { return json::serialize(v) + "\n"; }

ClientLine client_line(const json::object& o, clients::Clock::time_point origin) {
  if (const auto* record = o.if_contains("record")) {
    return FleetRecord{.fleet = o.at("fleet").to_number<std::size_t>(),
                       .index = o.at("index").to_number<std::size_t>(),
                       .record = record_from_json(*record, origin)};
  }
  if (const auto* fleets = o.if_contains("fleets")) {
    ShareEnd end{.fleets = {}, .records = o.at("records").to_number<std::size_t>()};
    for (const auto& size : fleets->as_array()) end.fleets.push_back(size.to_number<std::size_t>());
    return end;
  }
  if (const auto* error = o.if_contains("error")) {
    return ShareError{.message = std::string(error->as_string())};
  }
  throw std::invalid_argument("neither a record, an end nor an error");
}

}  // namespace

std::string record_line(std::size_t fleet, std::size_t index,
                        const clients::ConnectionRecord& record,
                        clients::Clock::time_point origin) {
  return line_of(
      json::object{{"fleet", fleet}, {"index", index}, {"record", record_to_json(record, origin)}});
}

std::string end_line(const ShareEnd& end) {
  return line_of(json::object{{"fleets", json::array(end.fleets.begin(), end.fleets.end())},
                              {"records", end.records}});
}

std::string error_line(std::string_view message) {
  return line_of(json::object{{"error", message}});
}

ClientLine parse_client_line(std::string_view line, clients::Clock::time_point origin) {
  try {
    return client_line(json::parse(line).as_object(), origin);
  } catch (const std::exception& e) {
    throw std::invalid_argument(
        fmt::format("a client process's line cannot be read ({}): {:.80}", e.what(), line));
  }
}

std::deque<std::vector<clients::ConnectionRecord>> merge_fleets(std::vector<FleetRecord> records,
                                                                std::size_t fleets) {
  std::ranges::sort(records, {}, [](const FleetRecord& r) { return std::pair(r.fleet, r.index); });
  std::deque<std::vector<clients::ConnectionRecord>> merged(fleets);
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto& r = records[i];
    if (r.fleet >= fleets) {
      throw std::invalid_argument(
          fmt::format("a record of fleet {} came back, but the scenario has {}", r.fleet, fleets));
    }
    if (i > 0 && records[i - 1].fleet == r.fleet && records[i - 1].index == r.index) {
      throw std::invalid_argument(
          fmt::format("connection {} of fleet {} came back twice", r.index, r.fleet));
    }
    merged[r.fleet].push_back(std::move(r.record));
  }
  return merged;
}

}  // namespace loiter::suites
