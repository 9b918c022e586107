// The matrix as Markdown: a row per server, a column per scenario, then every finding.
#include <fmt/format.h>

#include <algorithm>

#include "loiter/reports/matrix.hpp"
#include "matrix_notes.hpp"

namespace loiter::reports {

namespace {

std::string escaped(std::string_view text) {  // a Markdown table cell
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string shown_status(const MatrixCell& cell) {
  if (cell.status == Status::fail) return "**FAIL**";
  return std::string(to_string(cell.status));
}

std::string row_text(const MatrixRow& row, const std::vector<std::string>& scenarios) {
  std::string out = fmt::format("| {} | {} |", row.target, escaped(row.version));
  for (const auto& id : scenarios) {
    if (!row.not_run.empty()) {
      out += " - |";
      continue;
    }
    const auto cell = std::ranges::find(row.cells, id, &MatrixCell::scenario);
    if (cell == row.cells.end()) {
      out += " |";
      continue;
    }
    const auto text = cell->figure.empty()
                          ? shown_status(*cell)
                          : fmt::format("{} {}", shown_status(*cell), cell->figure);
    out += fmt::format(" {} |", escaped(text));
  }
  return out + "\n";
}

std::string notes_text(const Matrix& matrix) {
  std::string text;
  for (const auto& note : matrix_notes::notes(matrix)) {
    const auto where = note.scenario.empty()
                           ? fmt::format("**{}**:", note.target)
                           : fmt::format("**{}** {}:", note.target, note.scenario);
    text += fmt::format("- {} {}\n", where, note.finding ? escaped(note.text) : note.text);
  }
  return text;
}

}  // namespace

std::string matrix_markdown(const Matrix& matrix) {
  std::string out = fmt::format("loiter {} matrix, {}\n\n| server | version |",
                                matrix.loiter_version, matrix.started_at);
  std::string rule = "|---|---|";
  for (const auto& id : matrix.scenarios) {
    out += fmt::format(" {} |", id);
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : matrix.rows) out += row_text(row, matrix.scenarios);
  const auto notes = notes_text(matrix);
  if (!notes.empty()) out += "\nFindings (and servers not run):\n\n" + notes;
  return out;
}

}  // namespace loiter::reports
