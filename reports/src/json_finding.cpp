// report.json's findings: {"code", "class", "scenario", "subject", "count", "of", "measured",
// "bound", "unit", then the details a code uses (only those set), then "text"}.
#include "json_finding.hpp"

#include <algorithm>
#include <array>
#include <variant>

#include "json_access.hpp"

namespace loiter::reports::json_finding {

namespace {

using namespace json_access;

// A detail of a finding: written only when set, read only when present.
using Member =
    std::variant<std::string Finding::*, std::optional<double> Finding::*,
                 std::optional<std::size_t> Finding::*, std::optional<unsigned> Finding::*,
                 std::vector<std::string> Finding::*, ConnectLimit Finding::*>;

// Every detail but `failures` (an object of its own), in the order they are written.
const std::array<std::pair<std::string_view, Member>, 22> kDetails{{
    {"since", &Finding::since},
    {"deadline", &Finding::deadline},
    {"slack", &Finding::slack},
    {"ending", &Finding::ending},
    {"expected_endings", &Finding::expected_endings},
    {"responses", &Finding::responses},
    {"status", &Finding::status},
    {"error", &Finding::error},
    {"limit", &Finding::limit},
    {"baseline", &Finding::baseline},
    {"peak", &Finding::peak},
    {"pool", &Finding::pool},
    {"connected_late", &Finding::connected_late},
    {"most_at_once", &Finding::most_at_once},
    {"connections", &Finding::connections},
    {"explanation", &Finding::explanation},
    {"processes", &Finding::processes},
    {"progress", &Finding::progress},
    {"progress_by_deadline", &Finding::progress_by_deadline},
    {"deadline_name", &Finding::deadline_name},
    {"descriptor", &Finding::descriptor},
    {"before", &Finding::before},
}};

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

json::value count_to_json(const std::optional<std::size_t>& n) {
  if (!n) return nullptr;
  return static_cast<std::uint64_t>(*n);
}

// Writes `member` of `f` under `key` when it is set.
void put_detail(json::object& out, std::string_view key, const Member& member, const Finding& f) {
  std::visit(Overloaded{
                 [&](std::string Finding::*m) {
                   if (!(f.*m).empty()) out[key] = f.*m;
                 },
                 [&](std::optional<double> Finding::*m) {
                   if (f.*m) out[key] = number(f.*m);
                 },
                 [&](std::optional<std::size_t> Finding::*m) {
                   if (f.*m) out[key] = count_to_json(f.*m);
                 },
                 [&](std::optional<unsigned> Finding::*m) {
                   if (f.*m) out[key] = *(f.*m);
                 },
                 [&](std::vector<std::string> Finding::*m) {
                   if (!(f.*m).empty()) out[key] = json::array((f.*m).begin(), (f.*m).end());
                 },
                 [&](ConnectLimit Finding::*m) {
                   if (f.*m != ConnectLimit::none) out[key] = to_string(f.*m);
                 },
             },
             member);
}

std::optional<std::size_t> maybe_count(const json::value& value, std::string_view where) {
  if (value.is_null()) return std::nullopt;
  if (value.is_uint64()) return value.get_uint64();
  if (value.is_int64() && value.get_int64() >= 0) return value.get_int64();
  throw std::runtime_error(fmt::format("{}: not a count", where));
}

std::vector<std::string> texts(const json::value& value, std::string_view where) {
  if (!value.is_array()) throw std::runtime_error(fmt::format("{}: not an array", where));
  std::vector<std::string> out;
  for (const auto& item : value.get_array()) {
    if (!item.is_string()) throw std::runtime_error(fmt::format("{}: not a string", where));
    out.emplace_back(item.get_string());
  }
  return out;
}

// Reads `member` of `f` from `value` (present under its key).
void get_detail(const json::value& value, const Member& member, Finding& f,
                const std::string& where) {
  std::visit(Overloaded{
                 [&](std::string Finding::*m) {
                   if (!value.is_string()) throw std::runtime_error(where + ": not a string");
                   f.*m = std::string(value.get_string());
                 },
                 [&](std::optional<double> Finding::*m) { f.*m = maybe_number(value, where); },
                 [&](std::optional<std::size_t> Finding::*m) { f.*m = maybe_count(value, where); },
                 [&](std::optional<unsigned> Finding::*m) {
                   const auto n = maybe_count(value, where);
                   if (n) f.*m = static_cast<unsigned>(*n);
                 },
                 [&](std::vector<std::string> Finding::*m) { f.*m = texts(value, where); },
                 [&](ConnectLimit Finding::*m) {
                   if (!value.is_string()) throw std::runtime_error(where + ": not a string");
                   f.*m = connect_limit_of(value.get_string());
                 },
             },
             member);
}

void get_failures(const json::object& object, Finding& f, const std::string& where) {
  const auto* failures = object.if_contains("failures");
  if (failures == nullptr) return;
  for (const auto& [what, count] : object_of(*failures, where + " failures")) {
    const auto n = maybe_count(count, where + " failures " + std::string(what));
    f.failures.emplace_back(std::string(what), n.value_or(0));
  }
}

}  // namespace

json::value to_json(const Finding& f) {
  json::object out{{"code", f.code},
                   {"class", to_string(f.klass)},
                   {"scenario", f.scenario},
                   {"subject", f.subject},
                   {"count", count_to_json(f.count)},
                   {"of", count_to_json(f.of)},
                   {"measured", number(f.measured)},
                   {"bound", number(f.bound)},
                   {"unit", f.unit}};
  for (const auto& [key, member] : kDetails) put_detail(out, key, member, f);
  if (!f.failures.empty()) {
    json::object failures;
    for (const auto& [what, n] : f.failures) failures[what] = static_cast<std::uint64_t>(n);
    out["failures"] = std::move(failures);
  }
  out["text"] = text(f);
  return out;
}

Finding finding_from_json(const json::value& value, std::string_view scenario) {
  const auto where = fmt::format("{}: finding", scenario);
  const auto& object = object_of(value, where);
  Finding f{.code = text(object, "code", where), .scenario = text(object, "scenario", where)};
  const auto klass = finding_class_from_string(text(object, "class", where));
  if (!klass) throw std::runtime_error(fmt::format("{} {}: unknown class", where, f.code));
  f.klass = *klass;
  f.subject = text(object, "subject", where);
  f.count = maybe_count(field(object, "count", where), where + " count");
  f.of = maybe_count(field(object, "of", where), where + " of");
  f.measured = maybe_number(field(object, "measured", where), where + " measured");
  f.bound = maybe_number(field(object, "bound", where), where + " bound");
  f.unit = text(object, "unit", where);
  for (const auto& [key, member] : kDetails) {
    if (const auto* detail = object.if_contains(key)) {
      get_detail(*detail, member, f, fmt::format("{} {}", where, key));
    }
  }
  get_failures(object, f, where);
  // The sentence is kept only where this loiter cannot say it again from the data.
  if (std::ranges::find(known_codes(), f.code) == known_codes().end()) {
    f.sentence = text(object, "text", where);
  }
  return f;
}

Finding finding_from_sentence(std::string sentence, std::string_view scenario, Status status) {
  return {.code = codes::kText,
          .scenario = std::string(scenario),
          .klass = status == Status::error ? FindingClass::infrastructure : FindingClass::deadline,
          .sentence = std::move(sentence)};
}

}  // namespace loiter::reports::json_finding
