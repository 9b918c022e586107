#include "loiter/reports/json.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace loiter::reports {

namespace json = boost::json;

namespace {

json::value figure_value(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return nullptr;  // JSON has no NaN or infinity
  // Counts are written as integers ("fds": 11, not 1.1E1).
  if (std::trunc(*value) == *value && std::fabs(*value) < 9.0e15) {
    return static_cast<std::int64_t>(*value);
  }
  return *value;
}

json::object group_to_json(const FigureGroup& group) {
  json::array values;
  for (const auto& [name, value] : group.values) {
    values.push_back(json::object{{"name", name}, {"value", figure_value(value)}});
  }
  return {{"name", group.name}, {"unit", group.unit}, {"values", std::move(values)}};
}

json::object scenario_to_json(const ScenarioReport& scenario) {
  json::array findings(scenario.findings.begin(), scenario.findings.end());
  json::array figures;
  for (const auto& group : scenario.figures) figures.push_back(group_to_json(group));
  return {{"id", scenario.id},
          {"status", to_string(scenario.status)},
          {"note", scenario.note},
          {"findings", std::move(findings)},
          {"figures", std::move(figures)}};
}

const json::value& field(const json::object& object, std::string_view key, std::string_view where) {
  const auto* value = object.if_contains(key);
  if (value == nullptr) throw std::runtime_error(fmt::format("{}: missing key '{}'", where, key));
  return *value;
}

std::string text(const json::object& object, std::string_view key, std::string_view where) {
  const auto& value = field(object, key, where);
  if (!value.is_string()) {
    throw std::runtime_error(fmt::format("{}: key '{}' must be a string", where, key));
  }
  return std::string(value.get_string());
}

FigureGroup group_from_json(const json::value& value) {
  const auto& object = value.as_object();
  FigureGroup group{
      .name = text(object, "name", "figure"), .unit = text(object, "unit", "figure"), .values = {}};
  for (const auto& entry : field(object, "values", "figure").as_array()) {
    const auto& item = entry.as_object();
    const auto& number = field(item, "value", "figure value");
    std::optional<double> parsed;
    if (!number.is_null()) parsed = number.to_number<double>();
    group.values.emplace_back(text(item, "name", "figure value"), parsed);
  }
  return group;
}

ScenarioReport scenario_from_json(const json::value& value) {
  const auto& object = value.as_object();
  ScenarioReport scenario{.id = text(object, "id", "scenario")};
  const auto status = status_from_string(text(object, "status", scenario.id));
  if (!status) throw std::runtime_error(fmt::format("{}: unknown status", scenario.id));
  scenario.status = *status;
  scenario.note = text(object, "note", scenario.id);
  for (const auto& finding : field(object, "findings", scenario.id).as_array()) {
    scenario.findings.emplace_back(finding.as_string());
  }
  for (const auto& group : field(object, "figures", scenario.id).as_array()) {
    scenario.figures.push_back(group_from_json(group));
  }
  return scenario;
}

}  // namespace

json::value to_json(const RunReport& report) {
  json::array scenarios;
  for (const auto& scenario : report.scenarios) scenarios.push_back(scenario_to_json(scenario));
  return json::object{{"schema", kSchema},
                      {"loiter_version", report.loiter_version},
                      {"target", report.target},
                      {"started_at", report.started_at},
                      {"scenarios", std::move(scenarios)}};
}

RunReport run_report_from_json(const json::value& document) {
  if (!document.is_object()) throw std::runtime_error("report: not a JSON object");
  const auto& object = document.as_object();
  const auto schema = text(object, "schema", "report");
  if (schema != kSchema) {
    throw std::runtime_error(
        fmt::format("report: schema '{}' is not one this loiter reads ('{}')", schema, kSchema));
  }
  RunReport report{.loiter_version = text(object, "loiter_version", "report"),
                   .target = text(object, "target", "report"),
                   .started_at = text(object, "started_at", "report"),
                   .scenarios = {}};
  for (const auto& scenario : field(object, "scenarios", "report").as_array()) {
    report.scenarios.push_back(scenario_from_json(scenario));
  }
  return report;
}

}  // namespace loiter::reports
