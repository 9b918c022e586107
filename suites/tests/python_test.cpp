// Python's http.server, the known-vulnerable baseline (fixtures/targets/python.toml): it has
// no deadline at all, so loiter must FAIL it on silent and partial-header, and say why --
// the connections are still open when the clients give up, and the kernel shows both ends
// ESTABLISHED with the server holding its socket. A check that passed here could not fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "loiter/fixtures/target/target_file.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

using reports::Finding;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Optional;
namespace codes = reports::codes;

void expect_held_without_deadline(const std::string& scenario) {
  const auto target = fixtures::bundled_target("python");
  if (::access(target.command.front().c_str(), X_OK) != 0) {
    GTEST_SKIP() << target.command.front() << " is not installed";
  }
  const auto result = run_scenario(*find_scenario(scenario), target, timing(), {.count = 20});
  ASSERT_FALSE(result.skipped.has_value()) << *result.skipped;
  EXPECT_FALSE(result.verdict.passed) << "python must fail " << scenario;
  const auto& findings = result.verdict.findings;
  EXPECT_THAT(findings, Contains(AllOf(Field(&Finding::code, codes::kStillOpen),
                                       Field(&Finding::count, Optional(20u)),
                                       Field(&Finding::of, Optional(20u)))))
      << testing::findings_of(result);
  // Most, not necessarily all: python's listen backlog is 5, so a few may never be accepted
  // (their own explanation says so).
  EXPECT_THAT(findings,
              Contains(AllOf(Field(&Finding::code, codes::kKernelView),
                             Field(&Finding::explanation,
                                   HasSubstr("server ESTABLISHED / client ESTABLISHED: "
                                             "open on both ends: the server accepted it")))))
      << testing::findings_of(result);
}

TEST(PythonBaseline, SilentConnectionsAreHeldWithoutDeadline) {
  expect_held_without_deadline("silent");
}

TEST(PythonBaseline, PartialHeadersAreHeldWithoutDeadline) {
  expect_held_without_deadline("partial-header");
}

}  // namespace
}  // namespace loiter::suites
