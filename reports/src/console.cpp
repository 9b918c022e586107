#include "loiter/reports/console.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>


namespace loiter::reports {

namespace {

constexpr std::size_t kLineWidth = 100;  // where the console wraps the left-out line

std::string_view colour_of(Status status) {
  switch (status) {
    case Status::pass:
      return "\x1b[32m";
    case Status::fail:
    case Status::error:
      return "\x1b[31m";
    case Status::skip:
      return "\x1b[33m";
    case Status::info:
      return "\x1b[36m";
  }
  return "";
}

std::string status_label(Status status, ConsoleStyle style) {
  std::string label = fmt::format("{:<5}", fmt::format("{}", to_string(status)));
  for (auto& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!style.color) return label;
  return fmt::format("{}{}\x1b[0m", colour_of(status), label);
}

}  // namespace

void render_console(const RunReport& report, std::ostream& out, ConsoleStyle style) {
  fmt::print(out, "loiter {} against {}{} ({})\n", report.loiter_version, report.target,
             over(report), report.started_at);
  if (!report.not_run.empty()) fmt::print(out, "not run: {}\n", report.not_run);
  for (const auto& line :
       {left_out_line(report, kLineWidth), connected_line(report), not_made_line(report)}) {
    if (!line.empty()) fmt::print(out, "{}\n", line);
  }
  int passed = 0, failed = 0, skipped = 0, observed = 0;
  for (const auto& scenario : report.scenarios) {
    std::string line = fmt::format("{} {:<16}", status_label(scenario.status, style), scenario.id);
    for (const auto& group : scenario.figures) line += "  " + group_text(group);
    if (!scenario.note.empty()) line += fmt::format("  ({})", scenario.note);
    fmt::print(out, "{}\n", line);
    passed += scenario.status == Status::pass;
    failed += scenario.status == Status::fail || scenario.status == Status::error;
    skipped += scenario.status == Status::skip;
    observed += scenario.status == Status::info;
  }
  for (const auto& scenario : report.scenarios) {
    if (scenario.findings.empty()) continue;
    fmt::print(out, "\n{} {}:\n", scenario.id, to_string(scenario.status));
    for (const auto& finding : scenario.findings) {
      fmt::print(out, "  - [{}] {}\n", to_string(finding.klass), text(finding));
    }
  }
  fmt::print(out, "\n{} passed, {} failed, {} skipped{}\n", passed, failed, skipped,
             observed > 0 ? fmt::format(", {} observed (not judged)", observed) : "");
}

}  // namespace loiter::reports
