// Names of the run document's enumerations, figures and the left-out line as text, and
// figure look-up.
#include "loiter/reports/run_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "loiter/reports/number_text.hpp"
#include "word_table.hpp"

namespace loiter::reports {

namespace {
constexpr word_table::Table<Status, 5> kNames{{
    {Status::pass, "pass"},
    {Status::fail, "fail"},
    {Status::skip, "skip"},
    {Status::error, "error"},
    {Status::info, "info"},
}};
constexpr word_table::Table<PlotStyle, 3> kStyles{{
    {PlotStyle::line, "line"},
    {PlotStyle::step, "step"},
    {PlotStyle::dots, "dots"},
}};

}  // namespace

std::string_view to_string(Status status) { return word_table::word_of(kNames, status, "unknown"); }
std::optional<Status> status_from_string(std::string_view text) {
  return word_table::value_of(kNames, text);
}
std::string_view to_string(PlotStyle style) {
  return word_table::word_of(kStyles, style, "unknown");
}
std::optional<PlotStyle> plot_style_from_string(std::string_view text) {
  return word_table::value_of(kStyles, text);
}

std::string over(const RunReport& report) {
  if (report.target_protocol == "h2c") return " over h2c";
  if (report.target_protocol == "h2") return " over HTTP/2 and TLS";
  return report.target_tls ? " over TLS" : "";
}

std::string figure_value_text(const std::optional<double>& value, std::string_view unit) {
  if (!value) return "-";
  if (unit == "s") return fmt::format("{:.3f}", *value);
  if (unit == "ms" || unit == "MiB") return fmt::format("{:.2f}", *value);
  return plain_number(*value);
}

std::string group_text(const FigureGroup& group) {
  std::string names, values;
  for (const auto& [name, value] : group.values) {
    const char* separator = names.empty() ? "" : "/";
    names += fmt::format("{}{}", separator, name);
    values += fmt::format("{}{}", separator, figure_value_text(value, group.unit));
  }
  return fmt::format("{} {} {}{}{}", group.name, names, values, group.unit.empty() ? "" : " ",
                     group.unit);
}

std::string left_out_line(const RunReport& report) {
  std::string line;
  for (const auto& group : report.left_out) {
    line += fmt::format("{}{} {} scenario{} ({}): {}", line.empty() ? "" : "; ", group.ids.size(),
                        group.protocol, group.ids.size() == 1 ? "" : "s",
                        fmt::join(group.ids, ", "), group.why);
  }
  return line.empty() ? line : "not for this target: " + line;
}

std::string connected_line(const RunReport& report) {
  if (report.connected.empty()) return "";
  return "against a server loiter did not start: " + report.connected;
}

std::string not_made_line(const RunReport& report) {
  if (!report.not_made) return "";
  return fmt::format("not made ({}): {}", report.not_made->why,
                     fmt::join(report.not_made->checks, ", "));
}

std::optional<double> figure(const ScenarioReport& scenario, std::string_view group,
                             std::string_view value) {
  for (const auto& g : scenario.figures) {
    if (g.name != group) continue;
    for (const auto& [name, number] : g.values) {
      if (name == value) return number;
    }
  }
  return std::nullopt;
}

}  // namespace loiter::reports
