// HTTP/3 over QUIC: there is no socket state to read, so a deadline the server keeps
// silently (RFC 9000 10.1: an idle timeout closes without a word) is judged by probes on
// both sides of it; and what only QUIC says: the idle timeout the server advertised, the
// code of its CONNECTION_CLOSE, the bytes it sent before the client's address was validated.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites::checks {

namespace {

Finding about(const Observation& o, const H3Expectation& e, const char* code, FindingClass klass,
              std::size_t count, std::size_t of) {
  auto f = finding(o, code, klass, e.kind);
  f.count = count;
  f.of = of;
  return f;
}

// What the client saw end the connection, as a finding says it: "close (CONNECTION_CLOSE
// H3_NO_ERROR)", "gone", "open".
std::string h3_ending(const ConnectionRecord& r) {
  auto words = std::string(clients::to_string(r.ending));
  if (r.h3 && r.h3->close) {
    words += fmt::format(" (CONNECTION_CLOSE {})",
                         clients::h3_error_name(r.h3->close->code, r.h3->close->application));
  } else if (r.h3 && r.h3->stateless_reset) {
    words += " (stateless reset)";
  }
  return words;
}

// Probes on both sides of the deadline; an ending the client saw before any probe, timed.
void check_probes(const Observation& o, const H3Expectation& e,
                  const std::vector<const ConnectionRecord*>& records, Verdict& v) {
  const auto deadline = *e.deadline;
  std::vector<Duration> unanswered_early, answered_late, early, late;
  std::size_t open = 0;
  std::optional<Duration> open_for;  // the least any still-open one lasted from its origin
  for (const auto* r : records) {
    const auto origin = deadline_origin(*r, e.since);
    if (!r->h3 || !origin) continue;  // never connected: connect-failed says so
    bool probed = false;
    for (const auto& probe : r->h3->probes) {
      probed = true;
      const auto at = probe.at - *origin;
      if (at < deadline - e.slack && !probe.answered) unanswered_early.push_back(at);
      if (at >= deadline && probe.answered) answered_late.push_back(at);
    }
    if (probed) continue;
    if (r->ending == Ending::open) {
      ++open;
      open_for = std::min(open_for.value_or(r->ended_at - *origin), r->ended_at - *origin);
    } else if (ended_by_server(*r)) {
      const auto lasted = r->ended_at - *origin;
      if (lasted < deadline - e.slack) early.push_back(lasted);
      if (lasted > deadline + e.slack) late.push_back(lasted);
    }
  }
  const auto window = [&](Finding f, double measured, Duration bound) {
    f.measured = measured;
    f.bound = in_seconds(bound);
    f.unit = "s";
    f.since = finding_since(e.since);
    f.deadline = in_seconds(deadline);
    f.slack = in_seconds(e.slack);
    f.deadline_name = e.name;
    f.deadline_key = e.key;
    v.findings.push_back(std::move(f));
  };
  const auto of = records.size();
  if (!unanswered_early.empty()) {
    window(
        about(o, e, codes::kProbeUnanswered, FindingClass::deadline, unanswered_early.size(), of),
        in_seconds(std::ranges::min(unanswered_early)), deadline - e.slack);
  }
  if (!answered_late.empty()) {
    window(about(o, e, codes::kProbeAnswered, FindingClass::deadline, answered_late.size(), of),
           in_seconds(std::ranges::max(answered_late)), deadline);
  }
  if (!early.empty()) {
    window(about(o, e, codes::kClosedEarly, FindingClass::deadline, early.size(), of),
           in_seconds(std::ranges::min(early)), deadline - e.slack);
  }
  if (!late.empty()) {
    window(about(o, e, codes::kClosedLate, FindingClass::deadline, late.size(), of),
           in_seconds(std::ranges::max(late)), deadline + e.slack);
  }
  if (open > 0) {  // neither probed nor ended: the client's patience ran out first
    auto f = about(o, e, codes::kStillOpen, FindingClass::deadline, open, of);
    f.measured = in_seconds(open_for.value_or(deadline));
    f.bound = in_seconds(deadline);
    f.unit = "s";
    f.since = finding_since(e.since);
    f.deadline_key = e.key;
    v.findings.push_back(std::move(f));
  }
}

void check_idle_advertised(const Observation& o, const H3Expectation& e,
                           const std::vector<const ConnectionRecord*>& records, Verdict& v) {
  std::size_t wrong = 0;
  std::optional<Duration> seen;
  for (const auto* r : records) {
    if (!r->h3 || !r->h3->handshake_done || !r->h3->idle_advertised) continue;
    // Transport parameters carry milliseconds.
    const auto advertised =
        std::chrono::duration_cast<std::chrono::milliseconds>(*r->h3->idle_advertised);
    if (advertised == std::chrono::duration_cast<std::chrono::milliseconds>(*e.idle_advertised))
      continue;
    ++wrong;
    if (!seen) seen = *r->h3->idle_advertised;
  }
  if (wrong == 0) return;
  auto f = about(o, e, codes::kIdleAdvertised, FindingClass::deadline, wrong, records.size());
  f.measured = in_seconds(*seen);
  f.bound = in_seconds(*e.idle_advertised);
  f.unit = "s";
  v.findings.push_back(std::move(f));
}

void check_close_code(const Observation& o, const H3Expectation& e,
                      const std::vector<const ConnectionRecord*>& records, Verdict& v) {
  std::map<std::string, std::size_t> wrong;  // by ending words
  for (const auto* r : records) {
    if (r->ending == Ending::connect_failed) continue;
    const auto& close = r->h3 ? r->h3->close : std::nullopt;
    if (close && close->application && close->code == *e.close_code) continue;
    ++wrong[h3_ending(*r)];
  }
  for (const auto& [words, count] : wrong) {
    auto f = about(o, e, codes::kWrongEnding, FindingClass::answer, count, records.size());
    f.ending = words;
    f.expected_endings = {
        fmt::format("close (CONNECTION_CLOSE {})", clients::h3_error_name(*e.close_code, true))};
    v.findings.push_back(std::move(f));
  }
}

void check_amplification(const Observation& o, const H3Expectation& e,
                         const std::vector<const ConnectionRecord*>& records, Verdict& v) {
  std::size_t over = 0;
  double most = 0;
  for (const auto* r : records) {
    if (!r->h3 || r->h3->unvalidated_sent == 0) continue;
    const double ratio = static_cast<double>(r->h3->unvalidated_received) /
                         static_cast<double>(r->h3->unvalidated_sent);
    most = std::max(most, ratio);
    if (ratio > *e.amplification) ++over;
  }
  if (over == 0) return;
  auto f = about(o, e, codes::kAmplification, FindingClass::answer, over, records.size());
  f.measured = most;
  f.bound = *e.amplification;
  v.findings.push_back(std::move(f));
}

}  // namespace

void check_h3(const Observation& o, const H3Expectation& e, Verdict& v) {
  const auto records = of_kind(o, e.kind);
  if (e.deadline) check_probes(o, e, records, v);
  if (e.idle_advertised) check_idle_advertised(o, e, records, v);
  if (e.close_code) check_close_code(o, e, records, v);
  if (e.amplification) check_amplification(o, e, records, v);
}

}  // namespace loiter::suites::checks
