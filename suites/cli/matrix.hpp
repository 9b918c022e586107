// `loiter matrix`: the catalogue against every installed bundled target (a real server per
// row, the reference server first), a run directory per server, and one table of verdicts
// with each cell's key figure, rendered from those run directories' report.json alone:
// printed, and saved as matrix.md and matrix.html in the matrix's directory.
#pragma once

#include <CLI/App.hpp>
#include <string>
#include <vector>

namespace loiter::cli {

struct MatrixOptions {
  std::vector<std::string> targets;    // bundled names or target files; empty: every bundled one
  std::vector<std::string> scenarios;  // empty: the catalogue without the load family
  std::size_t count = 0;               // 0: each scenario's own default
  std::string runs_root = "loiter-runs";
  std::string junit_path;  // empty: no JUnit XML
};

void add_matrix_options(CLI::App& command, MatrixOptions& options);

// Exit codes: 0 the matrix was made (failing cells are findings, not errors), 2 usage error
// (an unwritable --junit among them, refused before any server starts),
// 3 the run directory could not be written, 130 interrupted.
int run_matrix(const MatrixOptions& options);

}  // namespace loiter::cli
