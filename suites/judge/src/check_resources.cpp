// Resources: FDs given back within the recovery window, no server socket left in
// CLOSE_WAIT, and the server's own FD limit named when it stopped the server.
#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites::checks {

namespace {

// The connections the server ended with its FIN, when their FDs are all among those left:
// the server shut them down and never closed them. How many, out of the connections made, and
// the TCP states at the last sample (the server's side in TIME_WAIT: it sent its FIN first,
// while the descriptors stay open).
void name_shut_down(const Observation& o, std::size_t left, Finding& f) {
  std::size_t fin = 0, made = 0;
  for (const auto& r : o.connections) {
    if (r.ending == Ending::connect_failed) continue;
    ++made;
    if (r.ending == Ending::close) ++fin;
  }
  if (fin == 0 || left < fin) return;
  f.count = fin;
  f.of = made;
  if (!o.timeline.empty() && o.timeline.back().sample.tcp) {
    f.explanation = fixtures::describe(*o.timeline.back().sample.tcp);
  }
}

}  // namespace

void check_fds(const Observation& o, const Expectations& e, Verdict& v) {
  const auto& fds = o.fds;
  // Not sampled: not made (server_side_checks). A server that died gave nothing back and
  // holds nothing: its crash is the finding (server-exited), not its FDs.
  if (fds.recovered || !o.server_sampled || o.server_exit) return;
  auto f = finding(o, codes::kFdsNotRecovered, FindingClass::resources);
  f.measured = static_cast<double>(fds.after);
  f.bound = static_cast<double>(fds.baseline + e.fds_after);
  f.baseline = fds.baseline;
  f.peak = fds.peak;
  f.deadline = in_seconds(e.recovery);
  const auto allowed = fds.baseline + e.fds_after;
  if (fds.after > allowed) name_shut_down(o, fds.after - allowed, f);
  v.findings.push_back(std::move(f));
}

// When connections failed and one server process held about as many FDs as it may, the
// limit, not the server's logic, is the likely cause: say so.
void explain_server_limit(const Observation& o, Verdict& v) {
  constexpr std::size_t kNearLimit = 16;
  const auto& fds = o.fds;
  if (v.findings.empty() || !fds.server_limit) return;
  if (fds.peak_in_one_process + kNearLimit < *fds.server_limit) return;
  auto f = finding(o, codes::kServerFdLimit, FindingClass::capacity);
  f.measured = static_cast<double>(fds.peak_in_one_process);
  f.bound = static_cast<double>(*fds.server_limit);
  v.findings.push_back(std::move(f));
}

void check_close_wait(const Observation& o, const Expectations& e, Verdict& v) {
  if (!e.no_server_close_wait || o.timeline.empty()) return;
  const auto& tcp = o.timeline.back().sample.tcp;
  if (!tcp) return;  // no TCP counts: FDs alone judge it
  const auto stuck = tcp->server.of(fixtures::TcpState::close_wait);
  if (stuck == 0) return;
  auto f = finding(o, codes::kCloseWait, FindingClass::resources);
  f.count = stuck;
  v.findings.push_back(std::move(f));
}

}  // namespace loiter::suites::checks
