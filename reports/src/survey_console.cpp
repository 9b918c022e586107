// The survey as a console table: one row per measure in aligned columns, its facts, exposure
// and note under it.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>

#include "loiter/reports/survey_render.hpp"
#include "survey_words.hpp"

namespace loiter::reports {

namespace {

constexpr std::size_t kTableColumns = 5;
using TableRow = std::array<std::string, kTableColumns>;
const TableRow kTableHeadings{"behaviour", "time", "min/median/max", "agreed", "ending"};
constexpr std::string_view kTableGap = "  ";
constexpr std::string_view kLinesUnder = "    ";  // the indent of the lines under a row

// Characters as a terminal shows them: UTF-8 continuation bytes take no column.
std::size_t display_columns(std::string_view text) {
  return static_cast<std::size_t>(std::ranges::count_if(
      text, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string padded_to(const std::string& text, std::size_t width) {
  return text + std::string(width - std::min(width, display_columns(text)), ' ');
}

TableRow table_row(const SurveyMeasure& m, double max_wait) {
  namespace words = survey_words;
  if (!m.not_measured.empty()) return {words::behaviour(m), words::not_measured(m), "", "", ""};
  return {words::behaviour(m), words::time(m, max_wait), words::spread(m), words::agreement(m),
          to_string(m.ending)};
}

// Each row's cells padded to its column's widest; a row's last non-empty cell is not padded
// (no trailing spaces), nor a reason (not measured) that spans the columns after it.
std::string table_line(const TableRow& row, const std::array<std::size_t, kTableColumns>& widths,
                       bool spans) {
  std::size_t last = kTableColumns;
  while (last > 0 && row[last - 1].empty()) --last;
  std::string line;
  for (std::size_t i = 0; i < last; ++i) {
    const bool pad = i + 1 < last && !(spans && i == 1);
    if (i > 0) line += kTableGap;
    line += pad ? padded_to(row[i], widths[i]) : row[i];
  }
  return line;
}

void lines_under(const SurveyMeasure& m, std::ostream& out) {
  for (const auto& fact : survey_words::facts(m)) fmt::print(out, "{}{}\n", kLinesUnder, fact);
  if (!m.exposure.empty()) fmt::print(out, "{}exposure: {}\n", kLinesUnder, m.exposure);
  if (!m.note.empty()) fmt::print(out, "{}note: {}\n", kLinesUnder, m.note);
}

}  // namespace

void render_console(const Survey& survey, std::ostream& out) {
  fmt::print(out, "{} ({}): {}\n\n", survey_words::title(survey), survey.started,
             survey_words::settings(survey));
  std::vector<TableRow> rows;
  for (const auto& m : survey.measures) rows.push_back(table_row(m, survey.max_wait));
  std::array<std::size_t, kTableColumns> widths{};
  for (std::size_t i = 0; i < kTableColumns; ++i) widths[i] = display_columns(kTableHeadings[i]);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool spans = !survey.measures[r].not_measured.empty();
    for (std::size_t i = 0; i < kTableColumns; ++i) {
      if (!(spans && i == 1)) widths[i] = std::max(widths[i], display_columns(rows[r][i]));
    }
  }
  fmt::print(out, "{}\n", table_line(kTableHeadings, widths, false));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& m = survey.measures[r];
    fmt::print(out, "{}\n", table_line(rows[r], widths, !m.not_measured.empty()));
    lines_under(m, out);
  }
  if (survey.measures.empty()) fmt::print(out, "no measures\n");
  if (survey.server) fmt::print(out, "\n{}\n", survey_words::server(*survey.server));
  if (!survey.problems.empty()) {
    fmt::print(out, "\nproblems:\n");
    for (const auto& problem : survey.problems) fmt::print(out, "  - {}\n", problem);
  }
  if (survey.interrupted) fmt::print(out, "\ninterrupted: partial\n");
}

}  // namespace loiter::reports
