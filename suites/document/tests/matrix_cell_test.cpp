// A scenario result, reported and read back as a matrix cell, shows what `loiter matrix`
// showed when it read the live result: the run document carries everything a cell needs.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "canned_results.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/matrix.hpp"
#include "loiter/suites/document/report.hpp"

namespace loiter::suites {
namespace {

// The cell of a result after a round trip through report.json, as `loiter matrix` reads it.
reports::MatrixCell stored_cell(const ScenarioResult& result) {
  const reports::RunReport report{.loiter_version = "0.1.0",
                                  .target = "reference",
                                  .started_at = "2026-12-01T09:00:00Z",
                                  .scenarios = {to_report(result)}};
  const auto back =
      reports::run_report_from_json(boost::json::parse(reports::run_report_text(report)));
  return reports::matrix_cell(back.scenarios.at(0));
}

// A closure scenario: median against the declared deadline, the 408, what stayed open, the
// FDs not back.
TEST(MatrixCellOfAResult, AClosureResultShowsItsMedianDeadline408OpenAndFds) {
  EXPECT_EQ(stored_cell(testing::plain_result()).figure,
            "2.10 s / 2 s, 408, 1/4 open, FDs not back (+1)");
}

// A scenario the server must not cut: the connections answered whole (every response).
TEST(MatrixCellOfAResult, AMustNotCutResultCountsTheConnectionsAnsweredWhole) {
  EXPECT_EQ(stored_cell(testing::split_fleet_result()).figure, "1/2 answered");
}

// A scenario without a closure or completion: when the FDs were back.
TEST(MatrixCellOfAResult, AnAbortResultSaysWhenTheFdsWereBack) {
  auto result = testing::split_fleet_result();
  result.id = "rst-abort";
  result.expectations.completion.reset();
  EXPECT_EQ(stored_cell(result).figure, "FDs back in 0.3 s");
}

// Skipped and interrupted results are cells without a figure, with the reason.
TEST(MatrixCellOfAResult, SkippedAndInterruptedResultsAreNotJudged) {
  const auto skipped = stored_cell({.id = "stream", .skipped = "no stream path"});
  EXPECT_EQ(skipped.status, reports::Status::skip);
  EXPECT_EQ(skipped.note, "no stream path");
  const auto interrupted = stored_cell({.id = "silent", .interrupted = true});
  EXPECT_EQ(interrupted.status, reports::Status::error);
  EXPECT_EQ(interrupted.note, "interrupted by the user");
  EXPECT_EQ(reports::matrix_cell(error_report("silent", "the server did not start")).note,
            "the server did not start");
}

}  // namespace
}  // namespace loiter::suites
