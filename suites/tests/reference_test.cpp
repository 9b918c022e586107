// The catalogue against the well-behaved reference server: every scenario passes.
#include <gtest/gtest.h>

#include "self_test.hpp"

namespace loiter::suites {
namespace {

using testing::findings_of;
using testing::self_test_reference;

// The server closes every connection that sends nothing within its header deadline,
// measured from each connection's own connect, and gives every FD back.
TEST(Silent, ReferenceServerClosesEverySilentConnectionWithinItsHeaderDeadline) {
  const auto result = run_scenario(*find_scenario("silent"), self_test_reference(), timing());
  ASSERT_FALSE(result.skipped.has_value());
  EXPECT_TRUE(result.verdict.passed) << findings_of(result);
  EXPECT_EQ(result.observation.connections.size(), 100u);
  EXPECT_GT(result.observation.fds.peak, result.observation.fds.baseline)
      << "the probe never saw the connections: it measures nothing";
}

}  // namespace
}  // namespace loiter::suites
