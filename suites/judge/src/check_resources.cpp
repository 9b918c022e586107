// Resources: FDs given back within the recovery window, no server socket left in
// CLOSE_WAIT, and the server's own FD limit named when it stopped the server.
#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites::checks {


void check_fds(const Observation& o, const Expectations& e, Verdict& v) {
  const auto& fds = o.fds;
  if (fds.recovered || !o.server_sampled) return;  // not sampled: not made (server_side_checks)
  auto f = finding(o, codes::kFdsNotRecovered, FindingClass::resources);
  f.measured = static_cast<double>(fds.after);
  f.bound = static_cast<double>(fds.baseline + e.fds_after);
  f.baseline = fds.baseline;
  f.peak = fds.peak;
  f.deadline = in_seconds(e.recovery);
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
