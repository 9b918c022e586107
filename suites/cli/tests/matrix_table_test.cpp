// The cells of `loiter matrix` from plain results, and the table they make: the key figure of
// each cell, skipped servers, escaping, and findings under the table.
#include "matrix_table.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

namespace loiter::cli {
namespace {

using namespace std::chrono_literals;
using clients::ConnectionRecord;
using clients::Ending;
using ::testing::HasSubstr;

ConnectionRecord ended(Ending ending, suites::Duration at, unsigned status = 0) {
  ConnectionRecord record;
  record.ending = ending;
  record.ended_at = at;
  if (status != 0) record.responses.push_back({.status = status, .complete = at});
  return record;
}

suites::ScenarioResult closure_result() {
  suites::ScenarioResult result{.id = "silent"};
  result.expectations.closure = suites::ClosureExpectation{.deadline = 2s};
  result.observation.connections = {ended(Ending::close, 2100ms), ended(Ending::close, 2000ms, 408),
                                    ended(Ending::reset, 2200ms), ended(Ending::open, 4s)};
  result.observation.fds = {.baseline = 10, .peak = 14, .after = 11, .recovered = false};
  result.verdict = {.passed = false,
                    .findings = {{.code = reports::codes::kText,
                                  .sentence = "silent: 1/4 connections still open"}}};
  return result;
}

TEST(MatrixTable, AClosureCellShowsTheMedianAgainstTheDeadlineAnd408AndWhatStayedOpen) {
  const auto cell = cell_of(closure_result());
  EXPECT_EQ(cell.status, "fail");
  ASSERT_TRUE(cell.closure_median_s);
  EXPECT_DOUBLE_EQ(*cell.closure_median_s, 2.1);  // of the three the server ended
  EXPECT_EQ(cell.saw_408, 1u);
  EXPECT_EQ(cell.still_open, 1u);
  EXPECT_EQ(cell.fds_recovered, false);
  EXPECT_EQ(cell.figure, "2.10 s / 2 s, 408, 1/4 open, FDs not back (+1)");
}

TEST(MatrixTable, ACompletionCellCountsTheAnsweredConnections) {
  suites::ScenarioResult result{.id = "long-response"};
  result.expectations.completion = suites::CompletionExpectation{.responses = 1};
  result.observation.connections = {ended(Ending::client_close, 1s, 200), ended(Ending::reset, 1s)};
  result.observation.fds = {.recovered = true, .recovered_after = 300ms};
  const auto cell = cell_of(result);
  EXPECT_EQ(cell.status, "pass");
  EXPECT_EQ(cell.figure, "1/2 answered");
}

TEST(MatrixTable, SkippedAndInterruptedScenariosAreNotJudgedCells) {
  suites::ScenarioResult skipped{.id = "stream", .skipped = "the target declares no stream path"};
  EXPECT_EQ(cell_of(skipped).status, "skip");
  EXPECT_EQ(cell_of(skipped).note, "the target declares no stream path");
  suites::ScenarioResult interrupted{.id = "silent", .interrupted = true};
  EXPECT_EQ(cell_of(interrupted).status, "error");
}

Matrix two_servers() {
  Matrix matrix{.loiter_version = "0.1.0",
                .started_at = "2026-12-01T09:00:00Z",
                .scenarios = {"silent", "stream"}};
  matrix.rows.push_back(
      {.target = "nginx",
       .version = "nginx version: nginx/1.22.1 | patched",
       .cells = {cell_of(closure_result()), error_cell("stream", "the server exited")}});
  matrix.rows.push_back({.target = "apache", .skipped = "apache2 is not installed"});
  return matrix;
}

TEST(MatrixTable, MarkdownHasOneRowPerServerAndListsFindingsBelow) {
  const auto text = matrix_markdown(two_servers());
  EXPECT_THAT(text, HasSubstr("| server | version | silent | stream |\n|---|---|---|---|\n"));
  EXPECT_THAT(text, HasSubstr("| nginx | nginx version: nginx/1.22.1 \\| patched | **FAIL** 2.10 s "
                              "/ 2 s, 408, 1/4 open, FDs not back (+1) | error |\n"));
  EXPECT_THAT(text, HasSubstr("| apache |  | - | - |\n"));
  EXPECT_THAT(text, HasSubstr("- **nginx** silent: silent: 1/4 connections still open\n"));
  EXPECT_THAT(text, HasSubstr("- **nginx** stream: error: the server exited\n"));
  EXPECT_THAT(text, HasSubstr("- **apache**: not run: apache2 is not installed\n"));
}

TEST(MatrixTable, JsonKeepsEveryCellAndNullsWhatWasNotMeasured) {
  const auto json = boost::json::serialize(matrix_json(two_servers()));
  EXPECT_THAT(json, HasSubstr(R"("schema":"loiter-matrix/1")"));
  EXPECT_THAT(json, HasSubstr(R"("closure_median_s":2.1)"));
  EXPECT_THAT(json, HasSubstr(R"("status":"error")"));
  EXPECT_THAT(json, HasSubstr(R"("deadline_s":null)"));
  EXPECT_THAT(json, HasSubstr(R"("skipped":"apache2 is not installed")"));
}

}  // namespace
}  // namespace loiter::cli
