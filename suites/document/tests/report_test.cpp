// Scenario results become run-document entries with the key figures the console shows.
#include "loiter/suites/document/report.hpp"

#include <gtest/gtest.h>

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;

TEST(ToReport, SummarisesClosureTimesAndFds) {
  ScenarioResult result{.id = "silent"};
  for (auto at : {1200ms, 1000ms, 1100ms}) {
    clients::ConnectionRecord record;
    record.ending = clients::Ending::close;
    record.ended_at = at;
    result.observation.connections.push_back(record);
  }
  result.observation.fds = {.baseline = 5,
                            .baseline_settled = true,
                            .peak = 8,
                            .after = 5,
                            .recovered = true,
                            .recovered_after = 1ms};
  const auto report = to_report(result);
  EXPECT_EQ(report.status, reports::Status::pass);
  ASSERT_EQ(report.figures.size(), 3u);  // closure, FDs, RSS
  EXPECT_DOUBLE_EQ(*report.figures[0].values[0].second, 1.0);  // min
  EXPECT_DOUBLE_EQ(*report.figures[0].values[1].second, 1.1);  // median
  EXPECT_DOUBLE_EQ(*report.figures[0].values[2].second, 1.2);  // max
  EXPECT_EQ(report.figures[1].values[2].first, "recovered");
}

TEST(ToReport, ASkippedScenarioCarriesItsReason) {
  const auto report = to_report({.id = "stream", .skipped = "the target declares no stream path"});
  EXPECT_EQ(report.status, reports::Status::skip);
  EXPECT_EQ(report.note, "the target declares no stream path");
}

}  // namespace
}  // namespace loiter::suites
