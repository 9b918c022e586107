// Load scenarios: every dispatched regular request answered 2xx within the p99 bound, and
// the server's FDs back to baseline + pool while the load still runs.
#include <fmt/format.h>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/load_figures.hpp"

namespace loiter::suites::checks {

namespace {

// {"404", 3}, {"reset", 2}: what the regular requests that did not succeed got instead.
std::vector<std::pair<std::string, std::size_t>> failures_of(const clients::LoadResult& load) {
  std::vector<std::pair<std::string, std::size_t>> failures;
  for (const auto& [status, count] : load.non_2xx)
    failures.emplace_back(fmt::format("{}", status), count);
  for (const auto& [error, count] : load.errors) failures.emplace_back(error, count);
  return failures;
}

void check_regular_traffic(const Observation& o, const LoadExpectation& e, Verdict& v) {
  const auto& load = o.load->result;
  if (load.succeeded < load.owed()) {  // the requests the client reset on purpose owe nothing
    auto f = finding(o, codes::kNon2xx, FindingClass::answer);
    f.count = load.owed() - load.succeeded;
    f.of = load.owed();
    f.failures = failures_of(load);
    // Only timeouts, while the load's thread wanted a CPU most of the time: answers that may
    // have come and waited for a client too busy to read them in time.
    if (load.non_2xx.empty() && load.errors.size() == 1 && load.errors.contains("timeout")) {
      name_client_limit(load.client, f);
    }
    v.findings.push_back(std::move(f));
  }
  const auto p99 = load.from_intended.percentile(99.0);
  if (e.p99 && p99 > *e.p99) {
    auto f = finding(o, codes::kP99OverBound, FindingClass::capacity);
    f.measured = in_ms(p99);
    f.bound = in_ms(*e.p99);
    f.unit = "ms";
    name_client_limit(load.client, f);
    v.findings.push_back(std::move(f));
  }
}

}  // namespace

void name_client_limit(const clients::ClientCost& cost, reports::Finding& f) {
  if (cost.busy < clients::kClientBusy) return;
  f.client_busy = cost.busy;
  f.klass = FindingClass::infrastructure;
}

void check_load(const Observation& o, const LoadExpectation& e, Verdict& v) {
  if (!o.load) {
    v.findings.push_back(finding(o, codes::kNoLoad, FindingClass::infrastructure));
    return;
  }
  // Nothing dispatched: no load ran to be too short, or to hold FDs during.
  if (o.load->result.dispatched == 0) {
    v.findings.push_back(finding(o, codes::kNoLoadDispatched, FindingClass::infrastructure));
    return;
  }
  check_regular_traffic(o, e, v);
  const auto figures = load_figures(o);
  if (figures->all_waiting_closed && *figures->all_waiting_closed > figures->load_lasted) {
    auto f = finding(o, codes::kLoadTooShort, FindingClass::infrastructure);
    f.measured = in_seconds(*figures->all_waiting_closed);
    f.bound = in_seconds(figures->load_lasted);
    f.unit = "s";
    v.findings.push_back(std::move(f));
  }
  const std::size_t limit = o.fds.baseline + e.pool;
  if (e.fds_during && figures->fds_during && *figures->fds_during > limit) {
    auto f = finding(o, codes::kFdsDuringLoad, FindingClass::resources);
    f.measured = static_cast<double>(*figures->fds_during);
    f.bound = static_cast<double>(limit);
    f.baseline = o.fds.baseline;
    f.pool = e.pool;
    v.findings.push_back(std::move(f));
  }
}

}  // namespace loiter::suites::checks
