// denial.json: the denial document as JSON (schema in reports/SCHEMA.md), and back: its
// structs described, the codec (described_json.hpp) does the rest.
#include "loiter/reports/denial_json.hpp"

#include <fmt/format.h>

#include <boost/describe/class.hpp>
#include <sstream>

#include "json_file.hpp"
#include "loiter/reports/denial_render.hpp"
#include "loiter/reports/described_json.hpp"
#include "loiter/reports/json.hpp"

namespace loiter::reports {

BOOST_DESCRIBE_STRUCT(DenialStep, (),
                      (held, seconds, held_reached, held_low, reach_seconds, opened, reopened,
                       connect_failures, connects_per_s, bytes_per_s, holder_busy, requested,
                       succeeded, non_2xx, errors, error_kinds, p99_ms, max_ms, client_busy,
                       server_fds_before, server_fds_peak, server_fd_limit, server_rss_peak_mib,
                       server_busy, accept_queue_peak, backlog, denied, why, cause, cause_note))
BOOST_DESCRIBE_STRUCT(DenialKind, (), (kind, steps, knee, highest))
BOOST_DESCRIBE_STRUCT(DenialSide, (),
                      (role, target, protocol, server_binary, server_sha256, command, control,
                       kinds))
BOOST_DESCRIBE_STRUCT(DenialComparison, (),
                      (kind, baseline_knee, candidate_knee, baseline_highest, candidate_highest,
                       change))
BOOST_DESCRIBE_STRUCT(Denial, (),
                      (schema, loiter_version, started, duration, rate, step_seconds, p99_bound_ms,
                       least_2xx_share, pinning, sides, comparison, problems, interrupted))

// Named apart from denial_words (the renderers' words): one unity batch holds both.
namespace denial_json_words {
constexpr DenialCause kCauses[] = {DenialCause::none,     DenialCause::accept_queue,
                                   DenialCause::fd_limit, DenialCause::connection_cap,
                                   DenialCause::cpu,      DenialCause::unknown,
                                   DenialCause::client};
constexpr KneeChange kChanges[] = {KneeChange::same, KneeChange::lower, KneeChange::higher,
                                   KneeChange::not_comparable};
}  // namespace denial_json_words

}  // namespace loiter::reports

template <>
struct loiter::reports::described::Codec<loiter::reports::DenialCause>
    : EnumWords<DenialCause, denial_json_words::kCauses> {};
template <>
struct loiter::reports::described::Codec<loiter::reports::KneeChange>
    : EnumWords<KneeChange, denial_json_words::kChanges> {};

namespace loiter::reports {

boost::json::value to_json(const Denial& denial) { return described::write(denial); }

Denial denial_from_json(const boost::json::value& document) {
  return described::read_document<Denial>(document, "denial", kDenialSchema);
}

std::string denial_text(const Denial& denial) {
  std::ostringstream out;
  write_pretty(to_json(denial), out);
  return out.str();
}

Denial read_denial(const std::filesystem::path& path) {
  const auto file = std::filesystem::is_directory(path) ? path / "denial.json" : path;
  const auto document = read_json_file(file);
  try {
    return denial_from_json(document);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  }
}

bool is_denial(const std::filesystem::path& path) {
  try {
    const auto file = std::filesystem::is_directory(path) ? path / "denial.json" : path;
    if (!std::filesystem::is_regular_file(file)) return false;
    const auto document = read_json_file(file);
    const auto* schema =
        document.is_object() ? document.get_object().if_contains("schema") : nullptr;
    return schema != nullptr && schema->is_string() &&
           std::string_view(schema->get_string()).starts_with("loiter-denial/");
  } catch (const std::exception&) {
    return false;  // unreadable, not JSON, or not there: not a denial document
  }
}

}  // namespace loiter::reports
