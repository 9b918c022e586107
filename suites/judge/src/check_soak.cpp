// The soak: no upward drift of FDs, connections and RSS over the second half of the
// traffic, the last window's p99 near the first's, connections and threads back to their
// baseline; and what it leaves behind explained (the descriptor type that grew, the TCP
// states at the end) on the FD findings.
#include <fmt/format.h>

#include <algorithm>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/soak_figures.hpp"

namespace loiter::suites::checks {

namespace {

// The TCP states at the last sample, both ends ("server: ESTABLISHED 2, CLOSE_WAIT 40; ...").
std::string end_states(const Observation& o) {
  if (o.timeline.empty() || !o.timeline.back().sample.tcp) return {};
  return fixtures::describe(*o.timeline.back().sample.tcp);
}

// The type that grew most from `from` to `to`, if any grew.
std::string grown_type(const std::optional<fixtures::FdTypes>& from,
                       const std::optional<fixtures::FdTypes>& to) {
  if (!from || !to) return {};
  std::string grown;
  std::size_t most = 0;
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    if (to->by_type[t] <= from->by_type[t] || to->by_type[t] - from->by_type[t] <= most) continue;
    most = to->by_type[t] - from->by_type[t];
    grown = std::string(fixtures::to_string(static_cast<fixtures::FdType>(t)));
  }
  return grown;
}

void check_slope(const Observation& o, const std::optional<Slope>& slope, double bound,
                 Duration shortest, const char* subject, Verdict& v, double scale = 1.0,
                 const char* unit = "/min") {
  if (!slope || slope->to - slope->from < shortest) return;
  const double per_minute = slope->per_minute() * scale;
  // Over the bound beyond noise: the slope less two standard errors (a short run's wobble
  // of one or two connections is no drift; a leak's staircase is).
  const double at_least = (slope->per_second - 2.0 * slope->std_error) * 60.0 * scale;
  if (at_least <= bound * scale) return;
  auto f = finding(o, codes::kSlopeOverBound, FindingClass::resources, subject);
  f.measured = per_minute;
  f.bound = bound * scale;
  f.unit = unit;
  v.findings.push_back(std::move(f));
}

void check_p99(const Observation& o, const SoakFigures& figures, const SoakExpectation& e,
               Verdict& v) {
  if (figures.first_count == 0 || figures.last_count == 0) return;
  const auto bound = std::max(std::chrono::duration_cast<Duration>(figures.p99_first * e.p99_growth),
                              e.p99_floor);
  if (figures.p99_last <= bound) return;
  auto f = finding(o, codes::kP99Grew, FindingClass::capacity);
  f.measured = in_ms(figures.p99_last);
  f.bound = in_ms(bound);
  f.before = in_ms(figures.p99_first);
  f.unit = "ms";
  if (o.load) name_client_limit(o.load->result.client, f);
  v.findings.push_back(std::move(f));
}

void check_back(const Observation& o, std::size_t start, std::size_t end, const char* subject,
                Verdict& v) {
  if (end <= start) return;
  auto f = finding(o, codes::kNotBackToBaseline, FindingClass::resources, subject);
  f.measured = static_cast<double>(end);
  f.bound = static_cast<double>(start);
  if (std::string_view(subject) == soak_subjects::kConnections) f.explanation = end_states(o);
  v.findings.push_back(std::move(f));
}

}  // namespace

void check_soak(const Observation& o, const SoakFigures& f, const SoakExpectation& e, Verdict& v) {
  check_slope(o, f.fds, e.fds_per_minute, e.shortest_fit, soak_subjects::kFds, v);
  check_slope(o, f.connections, e.connections_per_minute, e.shortest_fit,
              soak_subjects::kConnections, v);
  check_slope(o, f.rss_kib, e.rss_kib_per_minute, e.shortest_fit, soak_subjects::kRss, v,
              1.0 / 1024.0, "MiB/min");
  check_p99(o, f, e, v);
  if (f.connections_start && f.connections_end) {
    check_back(o, *f.connections_start, *f.connections_end, soak_subjects::kConnections, v);
  }
  check_back(o, f.threads_start, f.threads_end, soak_subjects::kThreads, v);
}

void explain_soak_fds(const Observation& o, const SoakFigures& f, Verdict& v) {
  const auto steepest = steepest_fd_type(f);
  for (auto& finding : v.findings) {
    if (finding.code == codes::kSlopeOverBound && finding.subject == soak_subjects::kFds) {
      if (steepest) finding.descriptor = fixtures::to_string(*steepest);
      finding.explanation = end_states(o);
    } else if (finding.code == codes::kFdsNotRecovered) {
      finding.descriptor = grown_type(f.types_start, f.types_end);
      finding.explanation = end_states(o);
    }
  }
}

}  // namespace loiter::suites::checks
