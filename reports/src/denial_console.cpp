// The denial ladder as console text: per side a line per kind saying its knee, then per kind
// its steps in aligned columns with what stands out under a step; a comparison's knees.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "denial_words.hpp"
#include "ladder_words.hpp"
#include "loiter/reports/denial_render.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with the ladder's and
// the survey's console tables, whose helpers have the same purposes.
namespace denial_console {

namespace words = denial_words;
namespace numbers = ladder_words;

// A share of a core loiter's own threads may want before a step's figures say more of
// loiter than of the server (the ladder's client limit: 85%).
constexpr double kBusy = 0.85;

struct Column {
  std::string heading;
  bool right = false;  // numbers: aligned on their last digit
};

struct Row {
  std::vector<std::string> cells;
  std::vector<std::string> under;  // lines under the row: what stands out
};

// Characters as a terminal shows them: UTF-8 continuation bytes take no column.
std::size_t columns_of(std::string_view text) {
  return static_cast<std::size_t>(std::ranges::count_if(
      text, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string line(const std::vector<Column>& columns, const std::vector<std::string>& cells,
                 const std::vector<std::size_t>& widths) {
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const bool last = i + 1 == columns.size();
    const std::string fill(widths[i] - std::min(widths[i], columns_of(cells[i])), ' ');
    if (i > 0) out += "  ";
    out += columns[i].right ? fill + cells[i] : last ? cells[i] : cells[i] + fill;
  }
  return out;
}

void table(const std::vector<Column>& columns, const std::vector<Row>& rows, std::ostream& out) {
  std::vector<std::size_t> widths;
  std::vector<std::string> headings;
  for (const auto& column : columns) {
    widths.push_back(columns_of(column.heading));
    headings.push_back(column.heading);
  }
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      widths[i] = std::max(widths[i], columns_of(row.cells[i]));
    }
  }
  fmt::print(out, "{}\n", line(columns, headings, widths));
  for (const auto& row : rows) {
    fmt::print(out, "{}\n", line(columns, row.cells, widths));
    for (const auto& under : row.under) fmt::print(out, "    {}\n", under);
  }
}

const std::vector<Column> kStepColumns{
    {"held", true},         {"reached/low", true}, {"reopens/s", true}, {"attacker B/s", true},
    {"2xx", true},          {"p99 ms", true},      {"errors", true},    {"FDs/limit", true},
    {"accept queue", true}, {"server busy", true}, {"verdict"}};

Row step_row(const DenialStep& s) {
  Row row{.cells = {numbers::count(double(s.held)), words::reached(s),
                    numbers::figure(s.connects_per_s), numbers::figure(s.bytes_per_s),
                    words::share(s), numbers::figure(s.p99_ms), numbers::count(double(s.errors)),
                    words::fds(s), words::queue(s), numbers::busy(s.server_busy),
                    words::verdict(s)}};
  if (const auto kinds = words::error_kinds(s); !kinds.empty()) {
    row.under.push_back("errors: " + kinds);
  }
  if (s.connect_failures > 0) {
    row.under.push_back(fmt::format("{} of {} connects attempted never connected",
                                    numbers::count(double(s.connect_failures)),
                                    numbers::count(double(s.opened))));
  }
  if (s.holder_busy >= kBusy) {
    row.under.push_back(
        fmt::format("loiter's holder wanted a CPU {} of the time", numbers::busy(s.holder_busy)));
  }
  if (s.client_busy >= kBusy) {
    row.under.push_back(fmt::format("loiter's regular traffic wanted a CPU {} of the time",
                                    numbers::busy(s.client_busy)));
  }
  return row;
}

void side_section(const DenialSide& side, std::ostream& out) {
  fmt::print(out, "\n{}", words::side_name(side));
  if (const auto server = words::server(side); !server.empty()) fmt::print(out, ": {}", server);
  fmt::print(out, "\n");
  if (const auto command = words::command(side); !command.empty()) {
    fmt::print(out, "{}\n", command);
  }
  if (const auto control = words::control(side); !control.empty()) {
    fmt::print(out, "{}\n", control);
  }
  if (side.kinds.empty()) fmt::print(out, "no kinds\n");
  for (const auto& kind : side.kinds) fmt::print(out, "{}\n", words::kind_line(kind));
  for (const auto& kind : side.kinds) {
    if (kind.steps.empty()) continue;
    fmt::print(out, "\n{} on {}\n", kind.kind, words::side_name(side));
    std::vector<Row> rows;
    for (const auto& s : kind.steps) rows.push_back(step_row(s));
    table(kStepColumns, rows, out);
  }
}

const std::vector<Column> kComparisonColumns{
    {"kind"}, {"baseline knee", true}, {"candidate knee", true}, {"change"}};

void comparison_section(const Denial& denial, std::ostream& out) {
  fmt::print(out, "\ncandidate against baseline: {}\n", words::comparison_summary(denial));
  std::vector<Row> rows;
  for (const auto& c : denial.comparison) {
    rows.push_back({.cells = {c.kind, words::knee(c.baseline_knee, c.baseline_highest),
                              words::knee(c.candidate_knee, c.candidate_highest),
                              std::string(to_string(c.change))}});
  }
  table(kComparisonColumns, rows, out);
}

}  // namespace denial_console

void render_console(const Denial& denial, std::ostream& out) {
  namespace words = denial_words;
  fmt::print(out, "{} ({})\n{}\n", words::title(denial), denial.started, words::settings(denial));
  for (const auto& side : denial.sides) denial_console::side_section(side, out);
  if (denial.sides.empty()) fmt::print(out, "\nno sides\n");
  if (!denial.comparison.empty()) denial_console::comparison_section(denial, out);
  if (!denial.problems.empty()) {
    fmt::print(out, "\nproblems:\n");
    for (const auto& problem : denial.problems) fmt::print(out, "  - {}\n", problem);
  }
  if (denial.interrupted) fmt::print(out, "\ninterrupted: partial\n");
}

}  // namespace loiter::reports
