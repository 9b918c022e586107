// ladder.json: the ladder document as JSON (schema in reports/SCHEMA.md), and back: its
// structs described, the codec (described_json.hpp) does the rest.
#include "loiter/reports/ladder_json.hpp"

#include <fmt/format.h>

#include <boost/describe/class.hpp>
#include <sstream>

#include "json_file.hpp"
#include "loiter/reports/described_json.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/ladder_render.hpp"

namespace loiter::reports {

BOOST_DESCRIBE_STRUCT(LadderTrial, (),
                      (run, source, seconds, requested, dispatched, succeeded, non_2xx, errors,
                       error_kinds, p50_ms, p99_ms, max_ms, client_busy, server_busy,
                       server_cpu_s, server_rss_peak_mib, server_fds_before, server_fds_peak))
BOOST_DESCRIBE_STRUCT(LadderStep, (),
                      (kind, rate, connections, trials, requested_rate, dispatched_rate,
                       succeeded_rate, p50_ms, p99_ms, server_cpu_us_per_request,
                       server_rss_peak_mib, server_fds_peak, client_busy, server_busy, non_2xx,
                       errors, within, limit, note))
BOOST_DESCRIBE_STRUCT(LadderSide, (),
                      (role, target, protocol, server_binary, server_sha256, command, steps,
                       knee, knee_note))
BOOST_DESCRIBE_STRUCT(PairedFigure, (),
                      (step, figure, unit, higher_is_better, baseline, candidate, change,
                       baseline_median, candidate_median, median_change, low, high, confidence,
                       verdict, note))
BOOST_DESCRIBE_STRUCT(Ladder, (),
                      (schema, loiter_version, started, duration, trial_seconds, trials,
                       p99_bound_ms, tolerance, pinning, server_cpus, client_cpus, sides,
                       comparison, problems, interrupted))

namespace ladder_words {
constexpr StepKind kStepKinds[] = {StepKind::rate, StepKind::saturation};
constexpr Limit kLimits[] = {Limit::none, Limit::client, Limit::server, Limit::both};
constexpr PairedVerdict kVerdicts[] = {PairedVerdict::no_difference,
                                       PairedVerdict::within_tolerance, PairedVerdict::better,
                                       PairedVerdict::worse};
}  // namespace ladder_words

}  // namespace loiter::reports

template <>
struct loiter::reports::described::Codec<loiter::reports::StepKind>
    : EnumWords<StepKind, ladder_words::kStepKinds> {};
template <>
struct loiter::reports::described::Codec<loiter::reports::Limit>
    : EnumWords<Limit, ladder_words::kLimits> {};
template <>
struct loiter::reports::described::Codec<loiter::reports::PairedVerdict>
    : EnumWords<PairedVerdict, ladder_words::kVerdicts> {};

namespace loiter::reports {

boost::json::value to_json(const Ladder& ladder) { return described::write(ladder); }

Ladder ladder_from_json(const boost::json::value& document) {
  return described::read_document<Ladder>(document, "ladder", kLadderSchema);
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

bool is_ladder(const std::filesystem::path& path) {
  try {
    const auto file = std::filesystem::is_directory(path) ? path / "ladder.json" : path;
    if (!std::filesystem::is_regular_file(file)) return false;
    const auto document = read_json_file(file);
    const auto* schema =
        document.is_object() ? document.get_object().if_contains("schema") : nullptr;
    return schema != nullptr && schema->is_string() &&
           std::string_view(schema->get_string()).starts_with("loiter-ladder/");
  } catch (const std::exception&) {
    return false;  // unreadable, not JSON, or not there: not a ladder
  }
}

}  // namespace loiter::reports
