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
};

// One row per (scenario, the fault it exists to catch).
const std::vector<FaultCase> kFaultCases = {
    // No header deadline: silent connections are never closed.
    {"silent", "no-header-deadline", "100/100 connections still open at"},
    // A deadline at 3x the declared one: past the clients' patience of 2x.
    {"silent", "late-deadline", "100/100 connections still open at"},
};

class FaultIsCaught : public ::testing::TestWithParam<FaultCase> {};

// The scenario fails, and its findings say what the planted bug does.
TEST_P(FaultIsCaught, ScenarioFailsWithAFindingNamingTheSymptom) {
  const auto& c = GetParam();
  const auto result =
      run_scenario(*find_scenario(c.scenario), self_test_reference({c.fault}), timing());
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
