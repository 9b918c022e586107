// Meta-tests: each scenario FAILS against the reference-server fault it exists to catch,
// with a finding that names the symptom. A check that cannot fail is a defect.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "self_test.hpp"

namespace loiter::suites {
namespace {

using ::testing::Contains;
using testing::findings_of;
using ::testing::HasSubstr;
using testing::self_test_reference;

struct FaultCase {
  std::string scenario;
  std::string fault;    // the reference server's --fault switch
  std::string finding;  // a substring of the finding that must name the symptom
  ScenarioParameters parameters{};  // defaults, unless the row makes the run shorter
};

// idle-under-load, shortened: 300 waiting connections beside 2,000 req/s for 6 s.
const ScenarioParameters kShortLoad{.count = 300,
                                    .load_rate = 2000.0,
                                    .load_duration = std::chrono::seconds(6),
                                    .load_connections = 16};

// One row per (scenario, the fault it exists to catch).
const std::vector<FaultCase> kFaultCases = {
    // No header deadline: silent and stalled heads are never closed.
    {"silent", "no-header-deadline", "100/100 connections still open at"},
    {"partial-header", "no-header-deadline", "100/100 connections still open at"},
    // A deadline at 3x the declared one: past the clients' patience of 2x.
    {"silent", "late-deadline", "100/100 connections still open at"},
    // Each trickled byte re-arms the header deadline: the trickle is never cut.
    {"header-trickle", "deadline-resets-on-progress", "100/100 connections still open at"},
    // A stalled body is closed in time, but without the 408 the target promises.
    {"partial-body", "no-408-on-body-timeout",
     "100/100 connections ended as close, expected "
     "408+close"},
    // Idle keep-alive connections are never closed, or closed before their deadline.
    {"idle-keepalive", "no-idle-deadline", "100/100 connections still open at"},
    {"idle-keepalive", "early-idle-close", "100/100 connections closed early"},
    {"keepalive-reuse", "early-idle-close", "connections were cut off: fewer than 2 whole 200"},
    // FDs of aborted connections are never given back.
    {"rst-abort", "leak-fd-on-reset", "not back to"},
    // Closure is observed, but the FDs stay: shutdown() without close().
    {"silent", "shutdown-without-close", "not back to"},
    // The client's FIN is ignored: CLOSE_WAIT, FDs kept.
    {"fin-close", "close-wait-leak", "server-side sockets still in CLOSE_WAIT at the end"},
    // The request-wait deadline also cuts legitimate long exchanges.
    {"stream", "cuts-streams", "connections were cut off"},
    {"long-response", "cuts-streams", "connections were cut off"},
    {"slow-reader", "cuts-streams", "connections were cut off"},
    {"websocket", "cuts-streams", "ended by the server before the client closed it"},
    // Held connections dropped before their re-check: held, but not working.
    {"held-capacity", "early-idle-close", "ended by the server before the client closed it"},
    // An accept loop slower than the opening: the last connections are answered only after
    // the first re-checks, so the fleet was never held at once.
    {"held-capacity", "slow-accept", "not every connection was held at once"},
    // Under load: unused keep-alives never closed; FDs kept after a shutdown without close.
    {"idle-under-load", "no-idle-deadline", "idle-keepalive: 100/100 connections still open",
     kShortLoad},
    {"idle-under-load", "shutdown-without-close", "FDs while the load still ran came back only",
     kShortLoad},
    // O(n) work per request over every open connection: waiting connections slow the rest.
    {"idle-under-load", "scans-every-connection", "exceeds the target's bound", kShortLoad},
};

class FaultIsCaught : public ::testing::TestWithParam<FaultCase> {};

// The scenario fails, and its findings say what the planted bug does.
TEST_P(FaultIsCaught, ScenarioFailsWithAFindingNamingTheSymptom) {
  const auto& c = GetParam();
  const auto result =
      run_scenario(*find_scenario(c.scenario), self_test_reference({c.fault}), timing(),
                   c.parameters);
  ASSERT_FALSE(result.skipped.has_value()) << *result.skipped;
  EXPECT_FALSE(result.verdict.passed) << "the scenario cannot catch " << c.fault;
  EXPECT_THAT(result.verdict.findings, Contains(HasSubstr(c.finding))) << findings_of(result);
}

std::string case_name(const ::testing::TestParamInfo<FaultCase>& info) {
  std::string name = info.param.scenario + "_" + info.param.fault;
  std::ranges::replace(name, '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Meta, FaultIsCaught, ::testing::ValuesIn(kFaultCases), case_name);

}  // namespace
}  // namespace loiter::suites
