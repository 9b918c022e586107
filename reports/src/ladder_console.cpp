// The ladder as console tables: per side its steps in aligned columns, a step's note under
// it, its knee; a comparison's paired figures with each pair's change under them.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "ladder_words.hpp"
#include "loiter/reports/ladder_render.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with the survey's
// console table, whose helpers have the same purposes.
namespace ladder_console {

namespace words = ladder_words;

constexpr std::string_view kGap = "  ";
constexpr std::string_view kUnder = "    ";  // the indent of the lines under a row

struct Column {
  std::string heading;
  bool right = false;  // numbers: aligned on their last digit
};

struct Row {
  std::vector<std::string> cells;
  std::vector<std::string> under;  // lines under the row: a note, each pair's change
};

// Characters as a terminal shows them: UTF-8 continuation bytes take no column.
std::size_t columns_of(std::string_view text) {
  return static_cast<std::size_t>(std::ranges::count_if(
      text, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string cell(const std::string& text, std::size_t width, bool right, bool last) {
  const std::string fill(width - std::min(width, columns_of(text)), ' ');
  if (right) return fill + text;
  return last ? text : text + fill;  // no trailing spaces
}

std::string line(const std::vector<Column>& columns, const std::vector<std::string>& cells,
                 const std::vector<std::size_t>& widths) {
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += kGap;
    out += cell(cells[i], widths[i], columns[i].right, i + 1 == columns.size());
  }
  return out;
}

void table(const std::vector<Column>& columns, const std::vector<Row>& rows, std::ostream& out) {
  std::vector<std::size_t> widths;
  std::vector<std::string> heading_cells;
  for (const auto& column : columns) {
    widths.push_back(columns_of(column.heading));
    heading_cells.push_back(column.heading);
  }
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      widths[i] = std::max(widths[i], columns_of(row.cells[i]));
    }
  }
  fmt::print(out, "{}\n", line(columns, heading_cells, widths));
  for (const auto& row : rows) {
    fmt::print(out, "{}\n", line(columns, row.cells, widths));
    for (const auto& under : row.under) fmt::print(out, "{}{}\n", kUnder, under);
  }
}

const std::vector<Column> kStepColumns{
    {"step"},          {"requested/s", true}, {"dispatched/s", true},
    {"2xx/s", true},   {"non-2xx", true},     {"errors", true},
    {"p50 ms", true},  {"p99 ms", true},      {"CPU µs/req", true},
    {"RSS MiB", true}, {"FDs", true},         {"server busy", true},
    {"client busy", true}, {"limit"}};

Row step_row(const LadderStep& s, double bound) {
  Row row{.cells = {words::step(s), words::rate(s.requested_rate), words::rate(s.dispatched_rate),
                    words::rate(s.succeeded_rate), words::count(double(s.non_2xx)),
                    words::count(double(s.errors)), words::figure(s.p50_ms),
                    words::figure(s.p99_ms), words::figure(s.server_cpu_us_per_request),
                    words::figure(s.server_rss_peak_mib), words::count(s.server_fds_peak),
                    words::busy(s.server_busy), words::busy(s.client_busy),
                    words::mark(s, bound)}};
  if (!s.note.empty()) row.under.push_back("note: " + s.note);
  return row;
}

void side_section(const LadderSide& side, double bound, std::ostream& out) {
  fmt::print(out, "\n{}", words::side_name(side));
  if (const auto server = words::server(side); !server.empty()) fmt::print(out, ": {}", server);
  fmt::print(out, "\n");
  if (const auto command = words::command(side); !command.empty()) {
    fmt::print(out, "{}\n", command);
  }
  if (side.steps.empty()) {
    fmt::print(out, "no steps\n");
  } else {
    std::vector<Row> rows;
    for (const auto& s : side.steps) rows.push_back(step_row(s, bound));
    table(kStepColumns, rows, out);
  }
  fmt::print(out, "{}\n", words::knee(side, bound));
}

const std::vector<Column> kPairedColumns{
    {"step"},      {"figure"},         {"baseline", true}, {"candidate", true}, {"medians", true},
    {"pairs", true}, {"interval"}, {"verdict"}};

void comparison_section(const Ladder& ladder, std::ostream& out) {
  fmt::print(out,
             "\ncandidate against baseline (tolerance {}): {}\nmedians: the candidate's median "
             "against the baseline's; pairs: the median of the pairs' changes (the verdict's)\n",
             words::percent(ladder.tolerance), words::comparison_summary(ladder));
  std::vector<Row> rows;
  for (const auto& f : ladder.comparison) {
    Row row{.cells = {f.step, f.figure, words::side_median(f, f.baseline_median),
                      words::side_median(f, f.candidate_median), words::medians_change(f),
                      words::change(f.median_change), words::interval(f),
                      std::string(to_string(f.verdict))},
            .under = {"pairs: " + words::pairs(f)}};
    if (!f.note.empty()) row.under.push_back("note: " + f.note);
    rows.push_back(std::move(row));
  }
  table(kPairedColumns, rows, out);
}

}  // namespace ladder_console

void render_console(const Ladder& ladder, std::ostream& out) {
  namespace words = ladder_words;
  fmt::print(out, "{} ({})\n{}\n", words::title(ladder), ladder.started, words::settings(ladder));
  for (const auto& side : ladder.sides) {
    ladder_console::side_section(side, ladder.p99_bound_ms, out);
  }
  if (ladder.sides.empty()) fmt::print(out, "\nno sides\n");
  if (!ladder.comparison.empty()) ladder_console::comparison_section(ladder, out);
  if (!ladder.problems.empty()) {
    fmt::print(out, "\nproblems:\n");
    for (const auto& problem : ladder.problems) fmt::print(out, "  - {}\n", problem);
  }
  if (ladder.interrupted) fmt::print(out, "\ninterrupted: partial\n");
}

}  // namespace loiter::reports
