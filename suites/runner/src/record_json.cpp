// Connection records as JSON and back: every field of the plain record, no judgement; what
// the run directory keeps (records/<scenario>.jsonl) and what a client process sends its parent.
#include "loiter/suites/runner/record_json.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <mutex>
#include <set>
#include <stdexcept>

#include "loiter/suites/judge/in_units.hpp"
#include "record_described.hpp"

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

json::value record_to_json(const clients::ConnectionRecord& r, clients::Clock::time_point origin) {
  json::object out{{"kind", r.kind},
                   {"connect_start", r.connect_start == clients::Clock::time_point{}
                                         ? json::value(nullptr)  // its slot never came
                                         : json::value(in_seconds(r.connect_start - origin))}};
  auto rest = described::write(r);
  for (auto& [key, value] : rest.as_object()) out.emplace(key, std::move(value));
  out["ending_label"] = clients::ending_label(r);
  out["errno"] = r.error_number;
  return out;
}

namespace {

// The clients' kinds are static strings; a kind read back is kept as long as they are.
std::string_view interned_kind(std::string_view kind) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> kinds;
  const std::scoped_lock lock(mutex);
  auto it = kinds.find(kind);
  if (it == kinds.end()) it = kinds.emplace(kind).first;
  return *it;
}

clients::ConnectionRecord record_from(const json::object& o, clients::Clock::time_point origin) {
  auto r = described::read<clients::ConnectionRecord>(o);
  r.kind = interned_kind(o.at("kind").as_string());
  const auto& start = o.at("connect_start");
  if (!start.is_null()) {  // else: its slot never came
    r.connect_start = origin + described::read<clients::Duration>(start);
  }
  if (const auto* number = o.if_contains("errno")) r.error_number = json::value_to<int>(*number);
  return r;
}

}  // namespace

clients::ConnectionRecord record_from_json(const json::value& v,
                                           clients::Clock::time_point origin) {
  try {
    return record_from(v.as_object(), origin);
  } catch (const std::exception& e) {  // a missing field, one of the wrong type, an ending
    throw std::invalid_argument(fmt::format("a connection record cannot be read: {}", e.what()));
  }
}

}  // namespace loiter::suites
