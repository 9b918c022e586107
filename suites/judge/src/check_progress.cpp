// Naming the cause of a late closure: connections that outlived their deadline while the
// client's progress (a header line, a header byte) kept arriving past it, as a server whose
// deadline is re-armed by progress lets them.
#include <algorithm>

#include "checks.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites::checks {

namespace {

// What one connection's progress was, from its deadline's origin: sends after the first.
struct Progress {
  std::size_t by_deadline = 0;
  Duration last{};
  bool after_deadline = false;
};

Progress progress_of(const ConnectionRecord& r, Duration origin, Duration deadline) {
  Progress p;
  for (std::size_t i = 1; i < r.sends.size(); ++i) {
    const auto at = r.sends[i].at;
    if (at <= origin + deadline) ++p.by_deadline;
    if (at > origin + deadline) p.after_deadline = true;
    p.last = std::max(p.last, at);
  }
  return p;
}

// A late end that came from a late accept, not from progress: the server's accept queue
// still held connections at the last sample before this one's end less the deadline (when
// the server's clock must have started, had it started at its accept). A close must also
// have come less than the deadline (less its slack) after one of the client's sends, so that
// no deadline re-armed by that send could have fired then; a connection still open when the
// client gave up is judged on the queue alone (the kernel's view at the end says which of
// them the server never accepted).
bool accepted_late(const ConnectionRecord& r, const ServerEnd& end, const ClosureExpectation& c,
                   const std::vector<fixtures::TimedSample>& timeline) {
  const auto at = end.open ? r.ended_at : end.at;
  const bool soon_after_a_send =
      end.open || std::ranges::any_of(r.sends, [&](const clients::Send& send) {
        return send.at < at && at - send.at < c.deadline - c.slack;
      });
  return soon_after_a_send && at > c.deadline &&
         queued_until(r, at - c.deadline, timeline).has_value();
}

// Still open when the client gave up, or ended by the server after the window (over
// HTTP/2 with ClosureExpectation::stream: the stream), and not accepted late.
bool outlived(const ConnectionRecord& r, Duration origin, const ClosureExpectation& c,
              const std::vector<fixtures::TimedSample>& timeline) {
  const auto end = server_end(r, c.stream);
  if (!end.open && !(end.by_server && end.at - origin > c.deadline + c.slack)) return false;
  return !accepted_late(r, end, c, timeline);
}

}  // namespace

void check_progress(const std::vector<const ConnectionRecord*>& records,
                    const ClosureExpectation& c, Finding about,
                    const std::vector<fixtures::TimedSample>& timeline, Verdict& v) {
  if (c.progress.empty()) return;
  std::size_t count = 0, most_by_deadline = 0;
  Duration last{};
  for (const auto* r : records) {
    const auto origin = deadline_origin(*r, c.since);
    if (!origin || !outlived(*r, *origin, c, timeline)) continue;
    const auto p = progress_of(*r, *origin, c.deadline);
    if (!p.after_deadline) continue;
    ++count;
    most_by_deadline = std::max(most_by_deadline, p.by_deadline);
    last = std::max(last, p.last - *origin);
  }
  if (count == 0) return;
  about.code = codes::kOutlivedByProgress;
  about.klass = FindingClass::deadline;
  about.count = count;
  about.measured = in_seconds(last);
  about.bound = in_seconds(c.deadline);
  about.unit = "s";
  about.progress = c.progress;
  about.progress_by_deadline = most_by_deadline;
  v.findings.push_back(std::move(about));
}

}  // namespace loiter::suites::checks
