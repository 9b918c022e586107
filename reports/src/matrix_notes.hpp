// The lines under the matrix, one per server not run, harness error and finding, in row
// order; the Markdown and HTML renderings list the same ones. Private to reports/.
#pragma once

#include <string>
#include <vector>

#include "loiter/reports/matrix.hpp"

namespace loiter::reports::matrix_notes {

struct Note {
  std::string target;
  std::string scenario;  // empty: the whole server
  std::string text;      // "not run: ...", "error: ...", or a finding
  bool finding = false;
};

inline std::vector<Note> notes(const Matrix& matrix) {
  std::vector<Note> out;
  for (const auto& row : matrix.rows) {
    if (!row.not_run.empty()) {
      out.push_back({row.target, "", "not run: " + row.not_run});
      continue;
    }
    for (const auto& cell : row.cells) {
      if (cell.status == Status::error) {
        out.push_back({row.target, cell.scenario, "error: " + cell.note});
      }
      for (const auto& finding : cell.findings) {
        out.push_back({row.target, cell.scenario, finding, true});
      }
    }
  }
  return out;
}

}  // namespace loiter::reports::matrix_notes
