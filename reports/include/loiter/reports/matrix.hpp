// `loiter matrix` as a reporter over stored runs: from the run documents of several servers
// (each with the run directory it came from) a table, a row per server and a column per
// scenario, each cell a verdict with its key figure; rendered as Markdown, and as one
// self-contained HTML page whose cells link to each server's report.html. Reads only
// RunReports: what a cell shows must be in report.json.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

// One server's run document and its run directory.
struct MatrixRun {
  RunReport report;
  std::filesystem::path directory;
};

struct MatrixCell {
  std::string scenario;
  Status status = Status::skip;
  std::string figure;  // the key figure, short: "2.00 s / 2 s, 408"; empty when not judged
  std::string note;    // why skipped, or the harness error
  std::vector<std::string> findings;  // one line each
  bool operator==(const MatrixCell&) const = default;
};

struct MatrixRow {
  std::string target;
  std::string version;  // the first line of its version command, or "not installed"
  std::string description;
  std::string not_run;              // why the whole server was not run; then no cells
  std::filesystem::path directory;  // its run directory
  std::vector<MatrixCell> cells;
};

struct Matrix {
  std::string loiter_version;
  std::string started_at;              // the earliest start of its runs
  std::vector<std::string> scenarios;  // the columns: ids in the order they first appear
  std::vector<MatrixRow> rows;         // in the order of the runs
};

// The cell of one scenario: closure median against the declared deadline, 408 seen,
// connections still open, connections answered, FDs back or not.
MatrixCell matrix_cell(const ScenarioReport& scenario);
Matrix build_matrix(const std::vector<MatrixRun>& runs);

// The table, then the findings of every cell and the servers not run.
std::string matrix_markdown(const Matrix& matrix);

// One page: the table with each cell coloured by its verdict and linked to its server's
// report.html (relative to `html_path`, where the page is written), the findings below.
void render_matrix_html(const Matrix& matrix, const std::filesystem::path& html_path,
                        std::ostream& out);

// A cell's background for its verdict, "#rrggbb" (distinct for pass, fail, skip, error).
std::string_view verdict_colour(Status status);

}  // namespace loiter::reports
