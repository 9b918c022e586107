// The cells of the matrix from each scenario's figures in the run document, and the table
// of several runs.
#include "loiter/reports/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loiter/reports/number_text.hpp"

namespace loiter::reports {

namespace {

// The one place the matrix reads a finding: its class and text, one line of the findings
// list ("[deadline] 1/4 connections still open ..."); a loiter-run/2 sentence has no class,
// and a harness error's note (`with_class` false) needs none.
std::string finding_line(const Finding& finding, bool with_class = true) {
  if (!with_class || finding.code == codes::kText) return text(finding);
  return fmt::format("[{}] {}", to_string(finding.klass), text(finding));
}

const FigureGroup* group_of(const ScenarioReport& s, std::string_view name) {
  const auto it = std::ranges::find(s.figures, name, &FigureGroup::name);
  return it == s.figures.end() ? nullptr : &*it;
}

bool has_value(const FigureGroup* group, std::string_view name) {
  return group != nullptr &&
         std::ranges::any_of(group->values, [&](const auto& v) { return v.first == name; });
}

// Whether the FDs came back ("recovered") or not ("after"); nullopt when not recorded.
std::optional<bool> fds_recovered(const ScenarioReport& s) {
  const auto* fds = group_of(s, "FDs");
  if (has_value(fds, "recovered")) return true;
  if (has_value(fds, "after")) return false;
  return std::nullopt;
}

long long count(std::optional<double> value) { return value ? static_cast<long long>(*value) : 0; }

std::string fds_text(const ScenarioReport& s, bool recovered) {
  if (!recovered) {
    const auto baseline = count(figure(s, "FDs", "baseline"));
    const auto after = count(figure(s, "FDs", "after"));
    return fmt::format("FDs not back (+{})", after > baseline ? after - baseline : 0);
  }
  if (const auto back = figure(s, "FDs back", "after")) {
    return fmt::format("FDs back in {:.1f} s", *back);
  }
  return "FDs back";
}

// Connections whose ending label `fits`, and all connections, from the endings group.
template <typename Fits>
std::pair<long long, long long> endings(const ScenarioReport& s, Fits fits) {
  long long some = 0, all = 0;
  if (const auto* group = group_of(s, "endings")) {
    for (const auto& [label, n] : group->values) {
      all += count(n);
      if (fits(label)) some += count(n);
    }
  }
  return {some, all};
}

std::vector<std::string> closure_parts(const ScenarioReport& s, double deadline) {
  std::vector<std::string> parts;
  const auto median = figure(s, "closure", "median");
  parts.push_back(median ? fmt::format("{:.2f} s / {} s", *median, plain_number(deadline))
                         : fmt::format("none closed / {} s", plain_number(deadline)));
  const auto [saw_408, _] = endings(s, [](const auto& label) { return label.starts_with("408"); });
  if (saw_408 > 0) parts.emplace_back("408");
  const auto [open, all] = endings(s, [](const auto& label) { return label == "open"; });
  if (open > 0) parts.push_back(fmt::format("{}/{} open", open, all));
  // Over HTTP/2 and HTTP/3: the stream ended (reset, or answered), the connection kept.
  const auto kept_suffix = fmt::format("+{}", kKeptOpen);
  const auto reset_kept = endings(s, [&](const auto& label) {
    return label.ends_with(kept_suffix) && label.starts_with("rst-stream");
  }).first;
  if (reset_kept > 0) {
    parts.push_back(fmt::format("{}/{} streams reset, connections kept", reset_kept, all));
  }
  const auto answered_kept = endings(s, [&](const auto& label) {
    return label.ends_with(kept_suffix) && !label.starts_with("rst-stream");
  }).first;
  if (answered_kept > 0) {
    parts.push_back(fmt::format("{}/{} streams answered, connections kept", answered_kept, all));
  }
  return parts;
}

std::string figure_text(const ScenarioReport& s) {
  std::vector<std::string> parts;
  const auto recovered = fds_recovered(s);
  if (const auto deadline = figure(s, "deadline", "declared")) {
    parts = closure_parts(s, *deadline);
    if (recovered == false) parts.push_back(fds_text(s, false));
  } else if (const auto answered = figure(s, "completion", "answered")) {
    parts.push_back(fmt::format("{}/{} answered", count(answered),
                                count(figure(s, "completion", "connections"))));
    if (recovered == false) parts.push_back(fds_text(s, false));
  } else if (recovered) {
    parts.push_back(fds_text(s, *recovered));
  }
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

}  // namespace

MatrixCell matrix_cell(const ScenarioReport& scenario) {
  MatrixCell cell{.scenario = scenario.id, .status = scenario.status};
  if (scenario.status == Status::skip) {
    cell.note = scenario.note;
    return cell;
  }
  if (scenario.status == Status::error) {  // the harness error: its note, or its findings
    cell.note = scenario.note;
    for (const auto& finding : scenario.findings) {
      cell.note += (cell.note.empty() ? "" : "; ") + finding_line(finding, false);
    }
    return cell;
  }
  for (const auto& finding : scenario.findings) cell.findings.push_back(finding_line(finding));
  cell.figure = figure_text(scenario);
  return cell;
}

Matrix build_matrix(const std::vector<MatrixRun>& runs) {
  Matrix matrix;
  for (const auto& [report, directory] : runs) {
    if (matrix.loiter_version.empty()) matrix.loiter_version = report.loiter_version;
    if (matrix.started_at.empty() || report.started_at < matrix.started_at) {
      matrix.started_at = report.started_at;
    }
    MatrixRow row{.target = report.target,
                  .version = report.target_version,
                  .description = report.target_description,
                  .not_run = report.not_run,
                  .directory = directory,
                  .cells = {}};
    for (const auto& scenario : report.scenarios) {
      if (std::ranges::find(matrix.scenarios, scenario.id) == matrix.scenarios.end()) {
        matrix.scenarios.push_back(scenario.id);
      }
      row.cells.push_back(matrix_cell(scenario));
    }
    matrix.rows.push_back(std::move(row));
  }
  return matrix;
}

}  // namespace loiter::reports
