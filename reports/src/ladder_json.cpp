// ladder.json: the ladder document as JSON (schema in reports/SCHEMA.md), and back.
#include "loiter/reports/ladder_json.hpp"

#include <sstream>

#include "json_access.hpp"
#include "json_file.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/ladder_render.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with survey_json.cpp's
// helpers of the same purpose.
namespace ladder_json {

using namespace json_access;

json::array numbers(const std::vector<double>& values) {
  json::array out;
  for (double v : values) out.push_back(number(v));
  return out;
}

json::object trial_to_json(const LadderTrial& t) {
  json::object kinds;
  for (const auto& [kind, count] : t.error_kinds) kinds[kind] = count;
  return {{"run", t.run},
          {"source", t.source},
          {"seconds", number(t.seconds)},
          {"requested", t.requested},
          {"dispatched", t.dispatched},
          {"succeeded", t.succeeded},
          {"non_2xx", t.non_2xx},
          {"errors", t.errors},
          {"error_kinds", std::move(kinds)},
          {"p50_ms", number(t.p50_ms)},
          {"p99_ms", number(t.p99_ms)},
          {"max_ms", number(t.max_ms)},
          {"client_busy", number(t.client_busy)},
          {"server_busy", number(t.server_busy)},
          {"server_cpu_s", number(t.server_cpu_s)},
          {"server_rss_peak_mib", number(t.server_rss_peak_mib)},
          {"server_fds_before", t.server_fds_before},
          {"server_fds_peak", t.server_fds_peak}};
}

json::object step_to_json(const LadderStep& s) {
  json::array trials;
  for (const auto& t : s.trials) trials.push_back(trial_to_json(t));
  return {{"kind", to_string(s.kind)},
          {"rate", number(s.rate)},
          {"connections", s.connections},
          {"trials", std::move(trials)},
          {"requested_rate", number(s.requested_rate)},
          {"dispatched_rate", number(s.dispatched_rate)},
          {"succeeded_rate", number(s.succeeded_rate)},
          {"p50_ms", number(s.p50_ms)},
          {"p99_ms", number(s.p99_ms)},
          {"server_cpu_us_per_request", number(s.server_cpu_us_per_request)},
          {"server_rss_peak_mib", number(s.server_rss_peak_mib)},
          {"server_fds_peak", number(s.server_fds_peak)},
          {"client_busy", number(s.client_busy)},
          {"server_busy", number(s.server_busy)},
          {"non_2xx", s.non_2xx},
          {"errors", s.errors},
          {"within", s.within},
          {"limit", to_string(s.limit)},
          {"note", s.note}};
}

json::object side_to_json(const LadderSide& side) {
  json::array steps;
  for (const auto& s : side.steps) steps.push_back(step_to_json(s));
  json::value knee = nullptr;
  if (side.knee) knee = number(*side.knee);
  return {{"role", side.role},
          {"target", side.target},
          {"protocol", side.protocol},
          {"server_binary", side.server_binary},
          {"server_sha256", side.server_sha256},
          {"command", json::array(side.command.begin(), side.command.end())},
          {"steps", std::move(steps)},
          {"knee", std::move(knee)},
          {"knee_note", side.knee_note}};
}

json::object figure_to_json(const PairedFigure& f) {
  return {{"step", f.step},
          {"figure", f.figure},
          {"unit", f.unit},
          {"higher_is_better", f.higher_is_better},
          {"baseline", numbers(f.baseline)},
          {"candidate", numbers(f.candidate)},
          {"change", numbers(f.change)},
          {"baseline_median", number(f.baseline_median)},
          {"candidate_median", number(f.candidate_median)},
          {"median_change", number(f.median_change)},
          {"low", number(f.low)},
          {"high", number(f.high)},
          {"confidence", number(f.confidence)},
          {"verdict", to_string(f.verdict)},
          {"note", f.note}};
}

// --- Reading back.

std::vector<double> decimals(const json::object& object, std::string_view key,
                             std::string_view where) {
  std::vector<double> out;
  const auto inner = fmt::format("{}: key '{}'", where, key);
  for (const auto& value : array(object, key, where)) out.push_back(real(value, inner));
  return out;
}

std::vector<std::string> texts(const json::object& object, std::string_view key,
                               std::string_view where) {
  std::vector<std::string> out;
  for (const auto& value : array(object, key, where)) {
    if (!value.is_string()) {
      throw std::runtime_error(fmt::format("{}: key '{}' must hold strings", where, key));
    }
    out.emplace_back(value.get_string());
  }
  return out;
}

std::vector<int> cpus(const json::object& object, std::string_view key, std::string_view where) {
  std::vector<int> out;
  for (const auto& value : array(object, key, where)) {
    if (!value.is_int64() && !value.is_uint64()) {
      throw std::runtime_error(fmt::format("{}: key '{}' must hold CPU numbers", where, key));
    }
    out.push_back(value.to_number<int>());
  }
  return out;
}

// An enum from its word, as to_string writes it.
template <typename Enum, std::size_t N>
Enum word(const json::object& object, std::string_view key, std::string_view where,
          const Enum (&values)[N]) {
  const auto said = text(object, key, where);
  std::string known;
  for (const auto value : values) {
    if (said == to_string(value)) return value;
    known += fmt::format("{}'{}'", known.empty() ? "" : ", ", to_string(value));
  }
  throw std::runtime_error(
      fmt::format("{}: key '{}' is '{}', not one of {}", where, key, said, known));
}

constexpr StepKind kStepKinds[] = {StepKind::rate, StepKind::saturation};
constexpr Limit kLimits[] = {Limit::none, Limit::client, Limit::server, Limit::both};
constexpr PairedVerdict kVerdicts[] = {PairedVerdict::no_difference,
                                       PairedVerdict::within_tolerance, PairedVerdict::better,
                                       PairedVerdict::worse};

LadderTrial trial_from_json(const json::value& value, const std::string& where) {
  const auto& o = object_of(value, where);
  LadderTrial t{.run = count_of(o, "run", where), .source = text(o, "source", where)};
  t.seconds = decimal_of(o, "seconds", where);
  t.requested = count_of(o, "requested", where);
  t.dispatched = count_of(o, "dispatched", where);
  t.succeeded = count_of(o, "succeeded", where);
  t.non_2xx = count_of(o, "non_2xx", where);
  t.errors = count_of(o, "errors", where);
  const auto kinds_where = where + ": error_kinds";
  for (const auto& [kind, tally] : object_of(field(o, "error_kinds", where), kinds_where)) {
    t.error_kinds[std::string(kind)] = count(tally, fmt::format("{}: '{}'", kinds_where,
                                                                std::string_view(kind)));
  }
  t.p50_ms = decimal_of(o, "p50_ms", where);
  t.p99_ms = decimal_of(o, "p99_ms", where);
  t.max_ms = decimal_of(o, "max_ms", where);
  t.client_busy = decimal_of(o, "client_busy", where);
  t.server_busy = decimal_of(o, "server_busy", where);
  t.server_cpu_s = decimal_of(o, "server_cpu_s", where);
  t.server_rss_peak_mib = decimal_of(o, "server_rss_peak_mib", where);
  t.server_fds_before = count_of(o, "server_fds_before", where);
  t.server_fds_peak = count_of(o, "server_fds_peak", where);
  return t;
}

LadderStep step_from_json(const json::value& value, const std::string& side, std::size_t i) {
  const auto& o = object_of(value, fmt::format("{}: step {}", side, i));
  const auto where = fmt::format("{}: step {}", side, i);
  LadderStep s{.kind = word(o, "kind", where, kStepKinds)};
  s.rate = decimal_of(o, "rate", where);
  s.connections = count_of(o, "connections", where);
  std::size_t k = 0;
  for (const auto& trial : array(o, "trials", where)) {
    s.trials.push_back(trial_from_json(trial, fmt::format("{}: trial {}", where, k++)));
  }
  s.requested_rate = decimal_of(o, "requested_rate", where);
  s.dispatched_rate = decimal_of(o, "dispatched_rate", where);
  s.succeeded_rate = decimal_of(o, "succeeded_rate", where);
  s.p50_ms = decimal_of(o, "p50_ms", where);
  s.p99_ms = decimal_of(o, "p99_ms", where);
  s.server_cpu_us_per_request = decimal_of(o, "server_cpu_us_per_request", where);
  s.server_rss_peak_mib = decimal_of(o, "server_rss_peak_mib", where);
  s.server_fds_peak = decimal_of(o, "server_fds_peak", where);
  s.client_busy = decimal_of(o, "client_busy", where);
  s.server_busy = decimal_of(o, "server_busy", where);
  s.non_2xx = count_of(o, "non_2xx", where);
  s.errors = count_of(o, "errors", where);
  s.within = bool_of(o, "within", where);
  s.limit = word(o, "limit", where, kLimits);
  s.note = text(o, "note", where);
  return s;
}

LadderSide side_from_json(const json::value& value, std::size_t i) {
  const auto& o = object_of(value, fmt::format("side {}", i));
  LadderSide side{.role = text(o, "role", fmt::format("side {}", i))};
  const auto where = fmt::format("side {} ({})", i, side.role);
  side.target = text(o, "target", where);
  side.protocol = text(o, "protocol", where);
  side.server_binary = text(o, "server_binary", where);
  side.server_sha256 = text(o, "server_sha256", where);
  side.command = texts(o, "command", where);
  std::size_t k = 0;
  for (const auto& step : array(o, "steps", where)) {
    side.steps.push_back(step_from_json(step, where, k++));
  }
  if (!field(o, "knee", where).is_null()) side.knee = decimal_of(o, "knee", where);
  side.knee_note = text(o, "knee_note", where);
  return side;
}

PairedFigure figure_from_json(const json::value& value, std::size_t i) {
  const auto& o = object_of(value, fmt::format("comparison {}", i));
  const auto first = fmt::format("comparison {}", i);
  PairedFigure f{.step = text(o, "step", first), .figure = text(o, "figure", first)};
  const auto where = fmt::format("comparison {} ({} at {})", i, f.figure, f.step);
  f.unit = text(o, "unit", where);
  f.higher_is_better = bool_of(o, "higher_is_better", where);
  f.baseline = decimals(o, "baseline", where);
  f.candidate = decimals(o, "candidate", where);
  f.change = decimals(o, "change", where);
  f.baseline_median = decimal_of(o, "baseline_median", where);
  f.candidate_median = decimal_of(o, "candidate_median", where);
  f.median_change = decimal_of(o, "median_change", where);
  f.low = decimal_of(o, "low", where);
  f.high = decimal_of(o, "high", where);
  f.confidence = decimal_of(o, "confidence", where);
  f.verdict = word(o, "verdict", where, kVerdicts);
  f.note = text(o, "note", where);
  return f;
}

}  // namespace ladder_json

boost::json::value to_json(const Ladder& ladder) {
  using namespace ladder_json;
  json::array sides, comparison;
  for (const auto& side : ladder.sides) sides.push_back(side_to_json(side));
  for (const auto& figure : ladder.comparison) comparison.push_back(figure_to_json(figure));
  return json::object{
      {"schema", kLadderSchema},
      {"loiter_version", ladder.loiter_version},
      {"started", ladder.started},
      {"duration", number(ladder.duration)},
      {"trial_seconds", number(ladder.trial_seconds)},
      {"trials", ladder.trials},
      {"p99_bound_ms", number(ladder.p99_bound_ms)},
      {"tolerance", number(ladder.tolerance)},
      {"pinning", ladder.pinning},
      {"server_cpus", json::array(ladder.server_cpus.begin(), ladder.server_cpus.end())},
      {"client_cpus", json::array(ladder.client_cpus.begin(), ladder.client_cpus.end())},
      {"sides", std::move(sides)},
      {"comparison", std::move(comparison)},
      {"problems", json::array(ladder.problems.begin(), ladder.problems.end())},
      {"interrupted", ladder.interrupted}};
}

Ladder ladder_from_json(const boost::json::value& document) {
  using namespace ladder_json;
  constexpr std::string_view kWhere = "ladder";
  const auto& o = object_of(document, kWhere);
  Ladder ladder{.schema = text(o, "schema", kWhere)};
  if (ladder.schema != kLadderSchema) {
    throw std::runtime_error(fmt::format("ladder: schema '{}' is not one this loiter reads ('{}')",
                                         ladder.schema, kLadderSchema));
  }
  ladder.loiter_version = text(o, "loiter_version", kWhere);
  ladder.started = text(o, "started", kWhere);
  ladder.duration = decimal_of(o, "duration", kWhere);
  ladder.trial_seconds = decimal_of(o, "trial_seconds", kWhere);
  ladder.trials = count_of(o, "trials", kWhere);
  ladder.p99_bound_ms = decimal_of(o, "p99_bound_ms", kWhere);
  ladder.tolerance = decimal_of(o, "tolerance", kWhere);
  ladder.pinning = text(o, "pinning", kWhere);
  ladder.server_cpus = cpus(o, "server_cpus", kWhere);
  ladder.client_cpus = cpus(o, "client_cpus", kWhere);
  std::size_t i = 0;
  for (const auto& side : array(o, "sides", kWhere))
    ladder.sides.push_back(side_from_json(side, i++));
  i = 0;
  for (const auto& figure : array(o, "comparison", kWhere)) {
    ladder.comparison.push_back(figure_from_json(figure, i++));
  }
  ladder.problems = texts(o, "problems", kWhere);
  ladder.interrupted = bool_of(o, "interrupted", kWhere);
  return ladder;
}

std::string ladder_text(const Ladder& ladder) {
  std::ostringstream out;
  write_pretty(to_json(ladder), out);
  return out.str();
}

Ladder read_ladder(const std::filesystem::path& path) {
  const auto file = std::filesystem::is_directory(path) ? path / "ladder.json" : path;
  const auto document = read_json_file(file);
  try {
    return ladder_from_json(document);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  }
}

}  // namespace loiter::reports
