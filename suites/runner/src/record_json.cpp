// Connection records as JSON and back: every field of the plain record, no judgement; what
// the run directory keeps (records/<scenario>.jsonl) and what a client process sends its parent.
#include "loiter/suites/runner/record_json.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <mutex>
#include <set>
#include <stdexcept>

#include "record_described.hpp"

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

json::value record_to_json(const clients::ConnectionRecord& r, clients::Clock::time_point origin) {
  const bool started = r.connect_start != clients::Clock::time_point{};
  auto out = described::write(record_file::RecordHead{
                                  .kind = std::string(r.kind),
                                  .connect_start = started ? std::optional(r.connect_start - origin)
                                                           : std::nullopt})
                 .as_object();
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
  const auto head = described::read<record_file::RecordHead>(o);
  auto r = described::read<clients::ConnectionRecord>(o);
  r.kind = interned_kind(head.kind);
  if (head.connect_start) r.connect_start = origin + *head.connect_start;
  if (const auto* number = o.if_contains("errno")) {  // older records lack it
    r.error_number = described::read<int>(*number);
  }
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
