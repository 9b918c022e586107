// Cells of `loiter matrix` from a scenario's result, and the table as Markdown and JSON.
#include "matrix_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace loiter::cli {

namespace {

using clients::Ending;

double in_seconds(suites::Duration d) { return std::chrono::duration<double>(d).count(); }

std::optional<double> median_closure(const suites::Observation& observation) {
  std::vector<double> times;
  for (const auto& record : observation.connections) {
    if (record.ending == Ending::close || record.ending == Ending::reset) {
      times.push_back(in_seconds(record.ended_at));
    }
  }
  if (times.empty()) return std::nullopt;
  std::ranges::sort(times);
  return times[times.size() / 2];
}

std::optional<suites::Duration> closure_deadline(const suites::Expectations& e) {
  if (e.closure) return e.closure->deadline;
  if (!e.kind_closures.empty()) return e.kind_closures.front().deadline;
  return std::nullopt;
}

std::string fds_text(const suites::FdObservation& fds) {
  if (!fds.recovered) {
    const auto above = fds.after > fds.baseline ? fds.after - fds.baseline : 0;
    return fmt::format("FDs not back (+{})", above);
  }
  if (fds.recovered_after) return fmt::format("FDs back in {:.1f} s", in_seconds(*fds.recovered_after));
  return "FDs back";
}

std::string figure_of(const MatrixCell& cell, const suites::ScenarioResult& result) {
  std::vector<std::string> parts;
  const auto& e = result.expectations;
  if (cell.deadline_s) {
    parts.push_back(cell.closure_median_s
                        ? fmt::format("{:.2f} s / {:g} s", *cell.closure_median_s, *cell.deadline_s)
                        : fmt::format("none closed / {:g} s", *cell.deadline_s));
    if (cell.saw_408 > 0) parts.emplace_back("408");
    if (cell.still_open > 0) {
      parts.push_back(fmt::format("{}/{} open", cell.still_open, result.observation.connections.size()));
    }
    if (cell.fds_recovered == false) parts.push_back(fds_text(result.observation.fds));
  } else if (e.completion) {
    const auto whole = std::ranges::count_if(result.observation.connections, [&](const auto& r) {
      return clients::complete_responses(r) >= e.completion->responses;
    });
    parts.push_back(fmt::format("{}/{} answered", whole, result.observation.connections.size()));
    if (cell.fds_recovered == false) parts.push_back(fds_text(result.observation.fds));
  } else {
    parts.push_back(fds_text(result.observation.fds));
  }
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

std::string escaped(std::string text) {  // a Markdown table cell
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string shown_status(const MatrixCell& cell) {
  if (cell.status == "fail") return "**FAIL**";
  return cell.status;
}

}  // namespace

MatrixCell cell_of(const suites::ScenarioResult& result) {
  MatrixCell cell{.scenario = result.id};
  if (result.skipped) {
    cell.status = "skip";
    cell.note = *result.skipped;
    return cell;
  }
  if (result.interrupted) return error_cell(result.id, "interrupted by the user");
  cell.status = result.verdict.passed ? "pass" : "fail";
  for (const auto& f : result.verdict.findings) cell.findings.push_back(reports::text(f));
  const auto& observation = result.observation;
  if (const auto deadline = closure_deadline(result.expectations)) {
    cell.deadline_s = in_seconds(*deadline);
    cell.closure_median_s = median_closure(observation);
  }
  for (const auto& record : observation.connections) {
    if (clients::ending_label(record).starts_with("408")) ++cell.saw_408;
    if (record.ending == Ending::open) ++cell.still_open;
  }
  cell.fds_recovered = observation.fds.recovered;
  cell.figure = figure_of(cell, result);
  return cell;
}

MatrixCell error_cell(std::string scenario, std::string error) {
  return {.scenario = std::move(scenario), .status = "error", .note = std::move(error)};
}

std::string matrix_markdown(const Matrix& matrix) {
  std::string out = fmt::format("loiter {} matrix, {}\n\n| server | version |", matrix.loiter_version,
                                matrix.started_at);
  std::string rule = "|---|---|";
  for (const auto& id : matrix.scenarios) {
    out += fmt::format(" {} |", id);
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : matrix.rows) {
    out += fmt::format("| {} | {} |", row.target, escaped(row.version));
    for (const auto& id : matrix.scenarios) {
      if (row.skipped) {
        out += " - |";
        continue;
      }
      const auto cell = std::ranges::find(row.cells, id, &MatrixCell::scenario);
      if (cell == row.cells.end()) {
        out += " |";
        continue;
      }
      const auto text = cell->figure.empty() ? shown_status(*cell)
                                             : fmt::format("{} {}", shown_status(*cell), cell->figure);
      out += fmt::format(" {} |", escaped(text));
    }
    out += "\n";
  }
  std::string notes;
  for (const auto& row : matrix.rows) {
    if (row.skipped) {
      notes += fmt::format("- **{}**: not run: {}\n", row.target, *row.skipped);
      continue;
    }
    for (const auto& cell : row.cells) {
      if (cell.status == "error") notes += fmt::format("- **{}** {}: error: {}\n", row.target, cell.scenario, cell.note);
      for (const auto& finding : cell.findings) {
        notes += fmt::format("- **{}** {}: {}\n", row.target, cell.scenario, escaped(finding));
      }
    }
  }
  if (!notes.empty()) out += "\nFindings (and servers not run):\n\n" + notes;
  return out;
}

boost::json::value matrix_json(const Matrix& matrix) {
  boost::json::array rows;
  for (const auto& row : matrix.rows) {
    boost::json::object cells;
    for (const auto& cell : row.cells) {
      boost::json::array findings;
      for (const auto& finding : cell.findings) findings.emplace_back(finding);
      boost::json::object c{{"status", cell.status},
                            {"figure", cell.figure},
                            {"note", cell.note},
                            {"findings", std::move(findings)},
                            {"saw_408", cell.saw_408},
                            {"still_open", cell.still_open}};
      c["closure_median_s"] = cell.closure_median_s ? boost::json::value(*cell.closure_median_s) : nullptr;
      c["deadline_s"] = cell.deadline_s ? boost::json::value(*cell.deadline_s) : nullptr;
      c["fds_recovered"] = cell.fds_recovered ? boost::json::value(*cell.fds_recovered) : nullptr;
      cells[cell.scenario] = std::move(c);
    }
    boost::json::object r{{"target", row.target},
                          {"description", row.description},
                          {"version", row.version},
                          {"run_directory", row.run_directory},
                          {"cells", std::move(cells)}};
    r["skipped"] = row.skipped ? boost::json::value(*row.skipped) : nullptr;
    rows.emplace_back(std::move(r));
  }
  boost::json::array scenarios;
  for (const auto& id : matrix.scenarios) scenarios.emplace_back(id);
  return boost::json::object{{"schema", "loiter-matrix/1"},
                             {"loiter_version", matrix.loiter_version},
                             {"started_at", matrix.started_at},
                             {"scenarios", std::move(scenarios)},
                             {"servers", std::move(rows)}};
}

}  // namespace loiter::cli
