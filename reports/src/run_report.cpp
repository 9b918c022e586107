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
  // QUIC brings its own TLS 1.3: an [h3] target's throwaway certificate is not "over TLS".
  if (report.target_protocol == "h3") return " over HTTP/3 (QUIC)";
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

namespace {

// A left-out group of more than this many scenarios is counted by its families.
constexpr std::size_t kNamedAtMost = 3;

// `text` broken at spaces so no line passes `width` columns (a longer word stays whole),
// later lines indented by two spaces; 0: as it is.
std::string wrapped(const std::string& text, std::size_t width) {
  if (width == 0 || text.size() <= width) return text;
  std::string out, line;
  std::size_t at = 0;
  while (at < text.size()) {  // bounded: each turn takes one word
    auto end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const auto word = text.substr(at, end - at);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = "  ";
    }
    line += (line.empty() || line == "  " ? "" : " ") + word;
    at = end + 1;
  }
  return out + line;
}

// "2 HTTP/1.1 over TLS scenarios (tls-half-hello, tls-handshake-silent)", or counted by
// family: "16 HTTP/1.1 (header, body, keepalive, abort, not-cut, send)".
std::string group_words(const LeftOut& group) {
  if (group.ids.size() <= kNamedAtMost || group.families.empty()) {
    return fmt::format("{} {} scenario{} ({})", group.ids.size(), group.protocol,
                       group.ids.size() == 1 ? "" : "s", fmt::join(group.ids, ", "));
  }
  return fmt::format("{} {} ({})", group.ids.size(), group.protocol,
                     fmt::join(group.families, ", "));
}

}  // namespace

std::string left_out_line(const RunReport& report, std::size_t width) {
  if (report.left_out.empty()) return "";
  const auto& groups = report.left_out;
  const bool one_why = std::ranges::all_of(
      groups, [&](const LeftOut& group) { return group.why == groups.front().why; });
  const bool counted = std::ranges::any_of(groups, [](const LeftOut& group) {
    return group.ids.size() > kNamedAtMost && !group.families.empty();
  });
  std::vector<std::string> parts;
  for (const auto& group : groups) {
    parts.push_back(one_why ? group_words(group)
                            : fmt::format("{}: {}", group_words(group), group.why));
  }
  auto line =
      one_why && groups.size() > 1
          ? fmt::format("not for this target ({}): {}", groups.front().why, fmt::join(parts, ", "))
          : fmt::format("not for this target: {}{}", fmt::join(parts, "; "),
                        one_why ? ": " + groups.front().why : std::string());
  if (counted) line += "; `loiter check --list` names them";
  return wrapped(line, width);
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
