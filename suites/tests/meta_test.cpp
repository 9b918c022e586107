// Meta-tests: each scenario FAILS against the reference-server fault it exists to catch,
// with a finding that names the symptom. A check that cannot fail is a defect.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "self_test.hpp"

namespace loiter::suites {
namespace {

using ::testing::Contains;
using testing::findings_of;
using ::testing::HasSubstr;
using testing::self_test_reference;

// Without a header deadline, silent connections are never closed: `silent` must fail and
// say how many were still open.
TEST(SilentMeta, FailsWhenTheServerHasNoHeaderDeadline) {
  const auto result =
      run_scenario(*find_scenario("silent"), self_test_reference({"no-header-deadline"}), timing());
  EXPECT_FALSE(result.verdict.passed);
  EXPECT_THAT(result.verdict.findings, Contains(HasSubstr("100/100 connections still open at")))
      << findings_of(result);
}

// A deadline applied at 3x its declared value closes connections only after the clients
// patience (2x the deadline): `silent` must fail, not pass because they close eventually.
TEST(SilentMeta, FailsWhenTheHeaderDeadlineIsLate) {
  const auto result =
      run_scenario(*find_scenario("silent"), self_test_reference({"late-deadline"}), timing());
  EXPECT_FALSE(result.verdict.passed);
  EXPECT_THAT(result.verdict.findings, Contains(HasSubstr("connections still open")))
      << findings_of(result);
}

}  // namespace
}  // namespace loiter::suites
