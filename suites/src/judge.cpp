#include "loiter/suites/judge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>

namespace loiter::suites {

namespace {

using clients::ConnectionRecord;
using clients::Ending;

double seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

using Predicate = std::function<bool(const ConnectionRecord&)>;

std::vector<const ConnectionRecord*> select(const Observation& o, const Predicate& keep) {
  std::vector<const ConnectionRecord*> chosen;
  for (const auto& record : o.connections) {
    if (keep(record)) chosen.push_back(&record);
  }
  return chosen;
}

bool ended_by_server(const ConnectionRecord& r) {
  return r.ending == Ending::close || r.ending == Ending::reset;
}

void check_connections(const Observation& o, const Expectations& e, Verdict& v) {
  if (o.server_exit) v.findings.push_back("the server " + *o.server_exit + " during the scenario");
  if (o.connections.size() != e.connections) {
    v.findings.push_back(fmt::format("{} connections were driven, {} expected",
                                     o.connections.size(), e.connections));
  }
  const auto failed = select(o, [](auto& r) { return r.ending == Ending::connect_failed; });
  if (!failed.empty()) {
    v.findings.push_back(fmt::format("{}/{} connections could not connect (first: {})",
                                     failed.size(), o.connections.size(), failed[0]->error));
  }
}

void check_closure_window(const Observation& o, const ClosureExpectation& c, Verdict& v) {
  const std::size_t total = o.connections.size();
  const auto open = select(o, [](auto& r) { return r.ending == Ending::open; });
  if (!open.empty()) {
    v.findings.push_back(
        fmt::format("{}/{} connections still open at {:.3f} s after connect (deadline {:.3f} s)",
                    open.size(), total, seconds(c.patience), seconds(c.deadline)));
  }
  const auto earliest = c.deadline - c.slack;
  const auto latest = c.deadline + c.slack;
  const auto window =
      fmt::format("deadline {:.3f} s ± {:.3f} s", seconds(c.deadline), seconds(c.slack));
  const auto early =
      select(o, [&](auto& r) { return ended_by_server(r) && r.ended_at < earliest; });
  if (!early.empty()) {
    const auto first = std::ranges::min(early, {}, &ConnectionRecord::ended_at)->ended_at;
    v.findings.push_back(
        fmt::format("{}/{} connections closed early, before {:.3f} s (earliest "
                    "{:.3f} s; {})",
                    early.size(), total, seconds(earliest), seconds(first), window));
  }
  const auto late = select(o, [&](auto& r) { return ended_by_server(r) && r.ended_at > latest; });
  if (!late.empty()) {
    const auto last = std::ranges::max(late, {}, &ConnectionRecord::ended_at)->ended_at;
    v.findings.push_back(
        fmt::format("{}/{} connections closed late, after {:.3f} s (latest "
                    "{:.3f} s; {})",
                    late.size(), total, seconds(latest), seconds(last), window));
  }
}

void check_endings(const Observation& o, const ClosureExpectation& c, Verdict& v) {
  std::map<std::string, std::size_t> unexpected;
  for (const auto& record : o.connections) {
    if (!ended_by_server(record)) continue;
    const auto label = clients::ending_label(record);
    if (std::ranges::find(c.endings, label) == c.endings.end()) ++unexpected[label];
  }
  for (const auto& [label, count] : unexpected) {
    v.findings.push_back(fmt::format("{}/{} connections ended as {}, expected {}", count,
                                     o.connections.size(), label, fmt::join(c.endings, " or ")));
  }
}

void check_fds(const FdObservation& fds, const Expectations& e, Verdict& v) {
  if (fds.recovered) return;
  const std::size_t limit = fds.baseline + e.fds_after;
  v.findings.push_back(fmt::format("FDs {}→{}, not back to {} within {:.3f} s: {} left",
                                   fds.baseline, fds.peak, limit, seconds(e.recovery),
                                   fds.after > limit ? fds.after - limit : 0));
}

}  // namespace

Verdict judge(const Observation& observation, const Expectations& expectations) {
  Verdict verdict;
  check_connections(observation, expectations, verdict);
  check_closure_window(observation, expectations.closure, verdict);
  check_endings(observation, expectations.closure, verdict);
  check_fds(observation.fds, expectations, verdict);
  verdict.passed = verdict.findings.empty();
  return verdict;
}

}  // namespace loiter::suites
