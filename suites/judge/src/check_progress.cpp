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

// Still open when the client gave up, or ended by the server after the window (over
// HTTP/2 with ClosureExpectation::stream: the stream).
bool outlived(const ConnectionRecord& r, Duration origin, const ClosureExpectation& c) {
  const auto end = server_end(r, c.stream);
  if (end.open) return true;
  return end.by_server && end.at - origin > c.deadline + c.slack;
}

}  // namespace

void check_progress(const std::vector<const ConnectionRecord*>& records,
                    const ClosureExpectation& c, Finding about, Verdict& v) {
  if (c.progress.empty()) return;
  std::size_t count = 0, most_by_deadline = 0;
  Duration last{};
  for (const auto* r : records) {
    const auto origin = deadline_origin(*r, c.since);
    if (!origin || !outlived(*r, *origin, c)) continue;
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
