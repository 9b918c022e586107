// The cells of `loiter matrix` and their renderings: one row per server, one column per
// scenario, each cell a verdict with its key figure (closure median against the deadline,
// 408 seen, connections left open, FDs recovered or not). Plain data, pure functions.
#pragma once

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <vector>

#include "loiter/suites/runner/run.hpp"

namespace loiter::cli {

struct MatrixCell {
  std::string scenario;
  std::string status;  // "pass", "fail", "skip", "error"
  std::string figure;  // "2.00 s / 2 s, 408" -- the key figure, short
  std::string note;    // why skipped, or the harness error
  std::vector<std::string> findings;
  std::optional<double> closure_median_s;
  std::optional<double> deadline_s;
  std::size_t saw_408 = 0;
  std::size_t still_open = 0;
  std::optional<bool> fds_recovered;
};

struct MatrixRow {
  std::string target;
  std::string description;
  std::string version;              // the first line of its version command
  std::optional<std::string> skipped;  // the whole server: not installed
  std::string run_directory;
  std::vector<MatrixCell> cells;
};

struct Matrix {
  std::string loiter_version;
  std::string started_at;
  std::vector<std::string> scenarios;
  std::vector<MatrixRow> rows;
};

MatrixCell cell_of(const suites::ScenarioResult& result);
MatrixCell error_cell(std::string scenario, std::string error);

// A Markdown table, then the findings of every failed cell.
std::string matrix_markdown(const Matrix& matrix);
boost::json::value matrix_json(const Matrix& matrix);

}  // namespace loiter::cli
