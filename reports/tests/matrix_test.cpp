// The cells of the matrix from run documents, and the table they make: the key figure of
// each cell, servers not run, escaping, findings under the table, and the HTML page's
// colours and links.
#include "loiter/reports/matrix.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

namespace loiter::reports {
namespace matrix_test {  // named: unity batches put other tests' helpers beside these

using ::testing::HasSubstr;
using ::testing::Not;

FigureGroup group(std::string name, std::string unit,
                  std::vector<std::pair<std::string, std::optional<double>>> values) {
  return {.name = std::move(name), .unit = std::move(unit), .values = std::move(values)};
}

// A finding as the run document holds it.
ScenarioReport with_finding(ScenarioReport scenario, std::string text) {
  Finding finding;  // a finding the reporter words from its stored sentence
  finding.code = "text";
  finding.sentence = std::move(text);
  scenario.findings.push_back(std::move(finding));
  return scenario;
}

// Four connections (close, 408+close, reset, open) against a 2 s deadline; FDs not back.
ScenarioReport closure_report() {
  return with_finding(
      {.id = "silent",
       .status = Status::fail,
       .figures = {group("closure", "s", {{"min", 2.0}, {"median", 2.1}, {"max", 2.2}}),
                   group("FDs", "", {{"baseline", 10}, {"peak", 14}, {"after", 11}}),
                   group("deadline", "s", {{"declared", 2}, {"slack", 0.25}}),
                   group("endings", "",
                         {{"408+close", 1}, {"close", 1}, {"open", 1}, {"reset", 1}})}},
      "silent: 1/4 connections still open");
}

ScenarioReport fds_report(std::string id, FigureGroup fds, double back_after) {
  return {.id = std::move(id),
          .status = Status::pass,
          .figures = {std::move(fds), group("FDs back", "s", {{"after", back_after}})}};
}

// A closure cell shows the median against the deadline, 408 when one was seen, what stayed
// open, and the FDs when they did not come back.
TEST(MatrixCell, AClosureCellShowsTheMedianAgainstTheDeadlineAnd408AndWhatStayedOpen) {
  const auto cell = matrix_cell(closure_report());
  EXPECT_EQ(cell.status, Status::fail);
  EXPECT_EQ(cell.figure, "2.10 s / 2 s, 408, 1/4 open, FDs not back (+1)");
  EXPECT_THAT(cell.findings, ::testing::ElementsAre("silent: 1/4 connections still open"));
}

// A finding the judge made is listed under its class, as in the console and report.html:
// a wrong answer at the right time is told apart from a missed deadline.
TEST(MatrixCell, AFindingIsListedUnderItsClass) {
  auto scenario = closure_report();
  scenario.findings = {Finding{.code = codes::kWrongEnding,
                               .scenario = "silent",
                               .klass = FindingClass::answer,
                               .count = 1,
                               .of = 4,
                               .ending = "400+close",
                               .expected_endings = {"close", "408+close"}}};
  EXPECT_THAT(matrix_cell(scenario).findings,
              ::testing::ElementsAre(
                  "[answer] 1/4 connections ended as 400+close, expected close or 408+close"));
}

// A closure cell where the server closed nothing says so.
TEST(MatrixCell, AClosureCellWithNothingClosedSaysSo) {
  const ScenarioReport held{
      .id = "silent",
      .status = Status::fail,
      .figures = {group("closure", "s", {{"min", {}}, {"median", {}}, {"max", {}}}),
                  group("FDs", "", {{"baseline", 10}, {"peak", 110}, {"recovered", 10}}),
                  group("deadline", "s", {{"declared", 2}, {"slack", 0.25}}),
                  group("endings", "", {{"open", 100}})}};
  EXPECT_EQ(matrix_cell(held).figure, "none closed / 2 s, 100/100 open");
}

// Over HTTP/2 a stream closure whose streams the server reset, keeping their connections
// (h2-data-trickle passing), says so, not that the connections were left open.
TEST(MatrixCell, AStreamClosureSaysTheStreamsWereResetAndTheConnectionsKept) {
  const ScenarioReport trickle{
      .id = "h2-data-trickle",
      .status = Status::pass,
      .figures = {group("closure", "s", {{"min", 0.5}, {"median", 0.51}, {"max", 0.52}}),
                  group("deadline", "s", {{"declared", 0.5}, {"slack", 0.25}}),
                  group("endings", "", {{"rst-stream+kept-open", 98}, {"408+kept-open", 2}})}};
  EXPECT_EQ(matrix_cell(trickle).figure,
            "0.51 s / 0.5 s, 408, 98/100 streams reset, connections kept, 2/100 streams answered, "
            "connections kept");
}

// A cell of a scenario the server must not cut counts the connections answered whole.
TEST(MatrixCell, ACompletionCellCountsTheAnsweredConnections) {
  auto report = fds_report("long-response",
                           group("FDs", "", {{"baseline", 5}, {"peak", 7}, {"recovered", 5}}), 0.3);
  report.figures.push_back(group("completion", "", {{"answered", 1}, {"connections", 2}}));
  EXPECT_EQ(matrix_cell(report).figure, "1/2 answered");
}

// Any other cell says whether, and how soon, the FDs came back.
TEST(MatrixCell, AnFdCellSaysWhenTheFdsWereBack) {
  const auto back = fds_report(
      "rst-abort", group("FDs", "", {{"baseline", 5}, {"peak", 205}, {"recovered", 5}}), 0.04);
  EXPECT_EQ(matrix_cell(back).figure, "FDs back in 0.0 s");
  const ScenarioReport leaked{
      .id = "rst-abort",
      .status = Status::fail,
      .figures = {group("FDs", "", {{"baseline", 5}, {"peak", 205}, {"after", 8}})}};
  EXPECT_EQ(matrix_cell(leaked).figure, "FDs not back (+3)");
}

// Skipped and errored scenarios are cells without a figure: the reason, or the harness error
// (from the note, or from the findings where the harness put it).
TEST(MatrixCell, SkippedAndErroredScenariosAreNotJudgedCells) {
  const auto skipped = matrix_cell(
      {.id = "stream", .status = Status::skip, .note = "the target declares no stream path"});
  EXPECT_EQ(skipped.status, Status::skip);
  EXPECT_EQ(skipped.note, "the target declares no stream path");
  EXPECT_EQ(skipped.figure, "");
  const auto failed =
      matrix_cell(with_finding({.id = "stream", .status = Status::error}, "the server exited"));
  EXPECT_EQ(failed.note, "the server exited");
  EXPECT_TRUE(failed.findings.empty());
  const auto interrupted =
      matrix_cell({.id = "silent", .status = Status::error, .note = "interrupted by the user"});
  EXPECT_EQ(interrupted.note, "interrupted by the user");
}

std::vector<MatrixRun> two_servers() {
  RunReport nginx{
      .loiter_version = "0.1.0",
      .target = "nginx",
      .target_version = "nginx version: nginx/1.22.1 | patched",
      .target_description = "Debian's nginx <2 s>",
      .started_at = "2026-12-01T09:00:05Z",
      .scenarios = {closure_report(),
                    with_finding({.id = "stream", .status = Status::error}, "the server exited")}};
  RunReport apache{.loiter_version = "0.1.0",
                   .target = "apache",
                   .target_version = "not installed",
                   .not_run = "apache2 is not installed",
                   .started_at = "2026-12-01T09:00:00Z"};
  return {{nginx, "/runs/20261201T090000Z-matrix/20261201T090005Z-01-nginx"},
          {apache, "/runs/20261201T090000Z-matrix/20261201T090010Z-02-apache"}};
}

// The table has a column per scenario in the order they first appear, and starts when the
// earliest run started.
TEST(Matrix, ColumnsAreTheScenariosInOrderAndTheStartIsTheEarliest) {
  const auto matrix = build_matrix(two_servers());
  EXPECT_THAT(matrix.scenarios, ::testing::ElementsAre("silent", "stream"));
  EXPECT_EQ(matrix.started_at, "2026-12-01T09:00:00Z");
  ASSERT_EQ(matrix.rows.size(), 2u);
  EXPECT_EQ(matrix.rows[0].version, "nginx version: nginx/1.22.1 | patched");
  EXPECT_EQ(matrix.rows[1].not_run, "apache2 is not installed");
}

// Markdown: one row per server, escaped cells, a server not run as dashes, and the findings,
// harness errors and servers not run below.
TEST(Matrix, MarkdownHasOneRowPerServerAndListsFindingsBelow) {
  const auto text = matrix_markdown(build_matrix(two_servers()));
  EXPECT_THAT(text, HasSubstr("loiter 0.1.0 matrix, 2026-12-01T09:00:00Z\n\n"));
  EXPECT_THAT(text, HasSubstr("| server | version | silent | stream |\n|---|---|---|---|\n"));
  EXPECT_THAT(text, HasSubstr("| nginx | nginx version: nginx/1.22.1 \\| patched | **FAIL** 2.10 s "
                              "/ 2 s, 408, 1/4 open, FDs not back (+1) | error |\n"));
  EXPECT_THAT(text, HasSubstr("| apache | not installed | - | - |\n"));
  EXPECT_THAT(text, HasSubstr("- **nginx** silent: silent: 1/4 connections still open\n"));
  EXPECT_THAT(text, HasSubstr("- **nginx** stream: error: the server exited\n"));
  EXPECT_THAT(text, HasSubstr("- **apache**: not run: apache2 is not installed\n"));
}

std::string page() {
  std::ostringstream out;
  render_matrix_html(build_matrix(two_servers()), "/runs/20261201T090000Z-matrix/matrix.html", out);
  return out.str();
}

// HTML: each cell carries its verdict's class (and so its colour) and links to its server's
// report.html, at the scenario, relative to the page.
TEST(Matrix, HtmlColoursEachCellByVerdictAndLinksItsServersReport) {
  const auto html = page();
  EXPECT_THAT(html, HasSubstr(R"(<td class="fail" title=""><a href="20261201T090005Z-01-nginx/)"
                              R"(report.html#s-silent"><strong>FAIL</strong> 2.10 s / 2 s, 408)"));
  EXPECT_THAT(html, HasSubstr(R"(<td class="error" title="the server exited">)"));
  EXPECT_THAT(html, HasSubstr(R"(<a href="20261201T090010Z-02-apache/report.html">apache</a>)"));
  EXPECT_THAT(html, HasSubstr(R"(<td class="skip">-</td>)"));
  EXPECT_THAT(html, HasSubstr(std::string("td.fail{background:") +
                              std::string(verdict_colour(Status::fail)) + "}"));
}

// HTML: every text escaped, the findings listed, nothing fetched, no script.
TEST(Matrix, HtmlEscapesEveryTextAndIsSelfContained) {
  const auto html = page();
  EXPECT_THAT(html, HasSubstr(R"(title="Debian&#39;s nginx &lt;2 s&gt;")"));
  EXPECT_THAT(html, HasSubstr("<li><b>nginx</b> silent: silent: 1/4 connections still open</li>"));
  EXPECT_THAT(html, HasSubstr("<li><b>apache</b>: not run: apache2 is not installed</li>"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("href=\"http")));
}

// The verdicts' colours are distinct, so a rendering shows which is which.
TEST(Matrix, VerdictColoursAreDistinct) {
  std::set<std::string_view> colours;
  for (const auto status :
       {Status::pass, Status::fail, Status::skip, Status::error, Status::info}) {
    colours.insert(verdict_colour(status));
  }
  EXPECT_EQ(colours.size(), 5u);
}

}  // namespace matrix_test
}  // namespace loiter::reports
