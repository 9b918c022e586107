// What the records show of why a closure missed its deadline, for the finding's words: the
// answer a server sent unasked to connections it then left open (a 408 and no close), early
// closes that all came at the deadline counted from connect (an idle deadline run from the
// accept instead of the last response), and late closes of connections that waited in the
// server's accept queue (a deadline from a late accept).
#include <algorithm>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites::checks {

namespace {

Duration median(std::vector<Duration> values) {
  std::ranges::sort(values);
  return values[values.size() / 2];
}

}  // namespace

// Every connection still open got a response it never asked for (over HTTP/1.1: a 408 to its
// stalled head or body), of one status: name it, and when it came from the deadline's origin.
void name_unasked_answer(const std::vector<const ConnectionRecord*>& open, Since since,
                         Finding& f) {
  std::optional<unsigned> status;
  std::vector<Duration> at;
  for (const auto* r : open) {
    const auto* response = r->unsolicited_response();
    const auto origin = deadline_origin(*r, since);
    if (!response || !origin || (status && *status != response->status)) return;
    status = response->status;
    at.push_back(response->started - *origin);
  }
  if (!status) return;
  f.status = *status;
  f.answered_at = in_seconds(median(std::move(at)));
}

// When every one of `ended` (each a close since connect) came within the deadline's window
// counted from connect, where the deadline runs from elsewhere: their median, else nothing.
std::optional<double> at_deadline_from_connect(const std::vector<Duration>& ended,
                                               const ClosureExpectation& c) {
  if (ended.empty() || c.since == Since::connect) return std::nullopt;
  const bool all_at_it = std::ranges::all_of(ended, [&c](Duration at) {
    return at >= c.deadline - c.slack && at <= c.deadline + c.slack;
  });
  if (!all_at_it) return std::nullopt;
  return in_seconds(median(ended));
}

std::optional<QueueSeen> queued_until(const ConnectionRecord& r, Duration until,
                                      const std::vector<fixtures::TimedSample>& timeline) {
  const fixtures::TimedSample* last = nullptr;
  const auto from = r.connected(), to = r.connected() + until;
  for (const auto& s : timeline) {
    if (s.at >= from && s.at <= to && s.sample.tcp) last = &s;
  }
  if (last == nullptr || last->sample.tcp->accept_queue == 0) return std::nullopt;
  return QueueSeen{.queue = last->sample.tcp->accept_queue, .backlog = last->sample.tcp->backlog};
}

void name_late_accept(const std::vector<std::pair<const ConnectionRecord*, Duration>>& late,
                      const ClosureExpectation& c,
                      const std::vector<fixtures::TimedSample>& timeline, Finding& f) {
  std::size_t waited = 0;
  for (const auto& [r, end] : late) {
    const auto seen = queued_until(*r, end - c.deadline, timeline);
    if (!seen) continue;
    ++waited;
    if (!f.accept_queue || seen->queue > *f.accept_queue) {
      f.accept_queue = seen->queue;
      f.backlog = seen->backlog;
    }
  }
  if (waited > 0) f.accept_waited = waited;
}

}  // namespace loiter::suites::checks
