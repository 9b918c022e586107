#include "loiter/suites/ladder/denial_conclude.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace loiter::suites::ladder {

namespace {

using reports::DenialCause;
using reports::KneeChange;

std::string percent(double share) { return fmt::format("{:.1f}%", share * 100); }

// "connect-failed 1200, timeout 20": the regular traffic's errors by kind, most first.
std::string error_text(const reports::DenialStep& step) {
  std::vector<std::pair<std::string, std::uint64_t>> kinds(step.error_kinds.begin(),
                                                          step.error_kinds.end());
  std::ranges::stable_sort(kinds, [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (const auto& [kind, count] : kinds) {
    if (count == 0) continue;
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", kind, count);
  }
  return text;
}

// Why the regular traffic counts as denied at this step; empty: it does not.
std::string denial_of(const reports::DenialStep& step, double p99_bound_ms, double least) {
  if (step.requested == 0) return "no regular request was due";
  const double share = static_cast<double>(step.succeeded) / static_cast<double>(step.requested);
  if (share < least) {
    auto why = fmt::format("2xx {} of {} requests < {}", percent(share), step.requested,
                           percent(least));
    if (step.non_2xx > 0) why += fmt::format("; non-2xx {}", step.non_2xx);
    if (const auto errors = error_text(step); !errors.empty()) why += "; " + errors;
    return why;
  }
  if (step.p99_ms > p99_bound_ms) {
    return fmt::format("p99 {:.1f} ms > {:.0f} ms", step.p99_ms, p99_bound_ms);
  }
  return {};
}

// The regular requests the server ended: their connection closed or reset under them, or
// its TLS handshake failed.
std::uint64_t server_ended(const reports::DenialStep& step) {
  std::uint64_t ended = 0;
  for (const auto* kind : {"closed", "reset", "handshake-failed"}) {
    if (const auto it = step.error_kinds.find(kind); it != step.error_kinds.end()) ended += it->second;
  }
  return ended;
}

void find_cause(reports::DenialStep& step, bool unanswered) {
  const auto fds = fmt::format("descriptors {} (before {})", step.server_fds_peak,
                               step.server_fds_before);
  if (step.server_fd_limit && step.server_fds_peak + kFdLimitSlack >= *step.server_fd_limit) {
    step.cause = DenialCause::fd_limit;
    step.cause_note = fmt::format("descriptors {} of its limit {}", step.server_fds_peak,
                                  *step.server_fd_limit);
    return;
  }
  // A server whose CPUs were all busy ran into them first, whatever else filled up.
  if (step.server_busy >= kServerCpuBound) {
    step.cause = DenialCause::cpu;
    step.cause_note = fmt::format("its CPUs {} busy", percent(step.server_busy));
    return;
  }
  const auto queue = fmt::format("accept queue {}/{}", step.accept_queue_peak, step.backlog);
  // What it accepted (the descriptors it gained) against the connections held open: those it
  // did not accept, waiting in its accept queue, mean it stopped accepting.
  const auto accepted = step.server_fds_peak - std::min(step.server_fds_peak, step.server_fds_before);
  const auto waiting = step.held_reached - std::min(step.held_reached, accepted);
  // It kept fewer open than were asked for and gained fewer descriptors: it ended (or left
  // waiting) what it would not hold, and the attacker kept reconnecting.
  // Unless loiter's holder was at its own limit: then it may be loiter that could not hold
  // them (below), unless the server itself ended most of the regular traffic's failures
  // (closed, reset, a handshake failed), which no busy client makes it do.
  const auto ended = server_ended(step);
  const bool server_ends_them = step.errors > 0 && 2 * ended >= step.errors;
  if (10 * step.held_reached < 9 * step.held && accepted < step.held &&
      (step.holder_busy < kLoiterBusy || server_ends_them)) {
    step.cause = DenialCause::connection_cap;
    step.cause_note = fmt::format(
        "only {} of {} stayed open at once ({} more descriptors): it ended or left waiting "
        "the rest, {:.0f} reconnects a second; {}",
        step.held_reached, step.held, accepted, step.connects_per_s, queue);
    if (ended > 0) {
      step.cause_note += fmt::format("; it ended {} of the regular requests (closed, reset or a "
                                     "failed handshake)",
                                     ended);
    }
    return;
  }
  if (waiting > 0 && step.accept_queue_peak > 0 &&
      2 * step.accept_queue_peak >= std::min(waiting, std::max<std::size_t>(step.backlog, 1))) {
    step.cause = DenialCause::connection_cap;
    step.cause_note = fmt::format("it stopped accepting: {} more descriptors for {} held "
                                  "connections, {}",
                                  accepted, step.held_reached, queue);
    return;
  }
  if (step.backlog > 0 && step.accept_queue_peak >= step.backlog) {
    step.cause = DenialCause::accept_queue;
    step.cause_note = fmt::format("{} full; it held {} more descriptors", queue, accepted);
    return;
  }
  if (const double busy = std::max(step.holder_busy, step.client_busy); busy >= kLoiterBusy) {
    step.cause = DenialCause::client;
    step.cause_note = fmt::format(
        "loiter's {} wanted a CPU {} of the time, its server {} busy: the denial may be "
        "loiter's own",
        step.holder_busy >= step.client_busy ? "holder" : "load thread", percent(busy),
        percent(step.server_busy));
    if (10 * step.held_reached < 9 * step.held) {
      step.cause_note += fmt::format(" (only {} of {} held open at once, {} more descriptors)",
                                     step.held_reached, step.held, accepted);
    }
    return;
  }
  // Regular requests went unanswered and connections waited in its accept queue while its
  // CPUs had room: what it serves them from (a worker pool, MaxRequestWorkers) was taken by
  // the held ones. (Late answers alone, with a queue, are a server behind, not one capped.)
  if (unanswered && step.accept_queue_peak >= kWaitingInQueue) {
    step.cause = DenialCause::connection_cap;
    step.cause_note = fmt::format(
        "connections waited in its {} while its CPUs were {} busy and it held {} more "
        "descriptors: what it serves them from was taken",
        queue, percent(step.server_busy), accepted);
    return;
  }
  step.cause = DenialCause::unknown;
  step.cause_note = fmt::format("{}, {}, CPU {} busy: none at a limit", fds, queue,
                                percent(step.server_busy));
}

// A knee for comparing: not denied up to N ranks above N.
std::optional<std::size_t> rank(const reports::DenialKind& kind) {
  if (kind.knee) return *kind.knee;
  return std::nullopt;
}

}  // namespace

void conclude_step(reports::DenialStep& step, double p99_bound_ms, double least_2xx_share) {
  step.why = denial_of(step, p99_bound_ms, least_2xx_share);
  step.denied = !step.why.empty();
  step.cause = DenialCause::none;
  step.cause_note.clear();
  const bool unanswered =
      step.requested > 0 && static_cast<double>(step.succeeded) <
                                least_2xx_share * static_cast<double>(step.requested);
  if (step.denied) find_cause(step, unanswered);
}

void conclude_kind(reports::DenialKind& kind) {
  kind.knee.reset();
  kind.highest = kind.steps.empty() ? 0 : kind.steps.back().held;
  const auto denied = std::ranges::find_if(kind.steps, &reports::DenialStep::denied);
  if (denied != kind.steps.end()) kind.knee = denied->held;
}

std::vector<reports::DenialComparison> compare_knees(const reports::DenialSide& baseline,
                                                     const reports::DenialSide& candidate,
                                                     std::size_t asked_highest) {
  std::vector<reports::DenialComparison> rows;
  for (const auto& base : baseline.kinds) {
    const auto cand = std::ranges::find(candidate.kinds, base.kind, &reports::DenialKind::kind);
    if (cand == candidate.kinds.end()) continue;
    reports::DenialComparison row{.kind = base.kind,
                                  .baseline_knee = base.knee,
                                  .candidate_knee = cand->knee,
                                  .baseline_highest = base.highest,
                                  .candidate_highest = cand->highest};
    const auto finished = [&](const reports::DenialKind& kind) {
      return kind.knee.has_value() || kind.highest >= asked_highest;
    };
    const auto b = rank(base), c = rank(*cand);
    if (!finished(base) || !finished(*cand)) {
      row.change = KneeChange::not_comparable;
    } else if (b == c) {
      row.change = KneeChange::same;
    } else if (!c || (b && *c > *b)) {
      row.change = KneeChange::higher;  // the candidate not denied, or denied later
    } else {
      row.change = KneeChange::lower;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace loiter::suites::ladder
