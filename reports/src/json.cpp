// report.json: the run document as JSON (schema in reports/SCHEMA.md), and back.
#include "loiter/reports/json.hpp"

#include "json_access.hpp"
#include "json_finding.hpp"
#include "json_plot.hpp"

namespace loiter::reports {

namespace {

using namespace json_access;

json::object group_to_json(const FigureGroup& group) {
  json::array values;
  for (const auto& [name, value] : group.values) {
    values.push_back(json::object{{"name", name}, {"value", number(value)}});
  }
  return {{"name", group.name}, {"unit", group.unit}, {"values", std::move(values)}};
}

json::object scenario_to_json(const ScenarioReport& scenario) {
  json::array findings;
  for (const auto& finding : scenario.findings) findings.push_back(json_finding::to_json(finding));
  json::array figures;
  for (const auto& group : scenario.figures) figures.push_back(group_to_json(group));
  json::array plots;
  for (const auto& plot : scenario.plots) plots.push_back(json_plot::to_json(plot));
  return {{"id", scenario.id},
          {"status", to_string(scenario.status)},
          {"note", scenario.note},
          {"findings", std::move(findings)},
          {"figures", std::move(figures)},
          {"plots", std::move(plots)}};
}

FigureGroup group_from_json(const json::value& value, const std::string& where) {
  const auto& object = object_of(value, where);
  FigureGroup group{.name = text(object, "name", where), .unit = text(object, "unit", where)};
  for (const auto& entry : array(object, "values", where)) {
    const auto& item = object_of(entry, where);
    const auto name = text(item, "name", where);
    group.values.emplace_back(name, maybe_number(field(item, "value", where), where + " " + name));
  }
  return group;
}

// The schema before findings were data (findings as sentences), still read.
constexpr std::string_view kSentenceSchema = "loiter-run/2";

ScenarioReport scenario_from_json(const json::value& value, bool sentences) {
  const auto& object = object_of(value, "scenario");
  ScenarioReport scenario{.id = text(object, "id", "scenario")};
  const auto& where = scenario.id;
  const auto status = status_from_string(text(object, "status", where));
  if (!status) throw std::runtime_error(fmt::format("{}: unknown status", where));
  scenario.status = *status;
  scenario.note = text(object, "note", where);
  for (const auto& finding : array(object, "findings", where)) {
    if (!sentences) {
      scenario.findings.push_back(json_finding::finding_from_json(finding, where));
    } else if (finding.is_string()) {
      scenario.findings.push_back(json_finding::finding_from_sentence(
          std::string(finding.get_string()), where, scenario.status));
    } else {
      throw std::runtime_error(where + ": a " + std::string(kSentenceSchema) +
                               " finding must be a string");
    }
  }
  for (const auto& group : array(object, "figures", where)) {
    scenario.figures.push_back(group_from_json(group, where + ": figure"));
  }
  for (const auto& plot : array(object, "plots", where)) {
    scenario.plots.push_back(json_plot::plot_from_json(plot, where));
  }
  return scenario;
}

// A key a document written before it was added lacks: read as empty.
std::string text_or_empty(const json::object& object, std::string_view key) {
  return object.contains(key) ? text(object, key, "report") : std::string();
}

json::object tls_to_json(const TargetTls& tls) {
  return {{"alpn", json::array(tls.alpn.begin(), tls.alpn.end())},
          {"server_name", tls.server_name},
          {"handshake", number(tls.handshake_s)},
          {"header_from", tls.header_from}};
}

std::optional<TargetTls> tls_from_json(const json::object& report) {
  const auto* value = report.if_contains("target_tls");
  if (value == nullptr) return std::nullopt;  // a cleartext target, or an older document
  constexpr std::string_view kWhere = "target_tls";
  const auto& object = object_of(*value, kWhere);
  TargetTls tls{
      .alpn = {},
      .server_name = text(object, "server_name", kWhere),
      .handshake_s = maybe_number(field(object, "handshake", kWhere), "target_tls.handshake"),
      .header_from = text(object, "header_from", kWhere)};
  for (const auto& name : array(object, "alpn", kWhere)) {
    if (!name.is_string()) throw std::runtime_error("target_tls: key 'alpn' must hold strings");
    tls.alpn.emplace_back(name.get_string());
  }
  return tls;
}

}  // namespace

json::value to_json(const RunReport& report) {
  json::array scenarios;
  for (const auto& scenario : report.scenarios) scenarios.push_back(scenario_to_json(scenario));
  json::object document{{"schema", kSchema},
                        {"loiter_version", report.loiter_version},
                        {"target", report.target},
                        {"target_version", report.target_version},
                        {"target_description", report.target_description}};
  if (report.target_tls) document["target_tls"] = tls_to_json(*report.target_tls);
  if (!report.target_protocol.empty()) document["target_protocol"] = report.target_protocol;
  if (!report.not_run.empty()) document["not_run"] = report.not_run;
  document["started_at"] = report.started_at;
  document["scenarios"] = std::move(scenarios);
  if (!report.left_out.empty()) {
    json::array left_out;
    for (const auto& group : report.left_out) {
      json::array ids;
      for (const auto& id : group.ids) ids.emplace_back(id);
      left_out.push_back(
          json::object{{"protocol", group.protocol}, {"why", group.why}, {"ids", std::move(ids)}});
    }
    document["left_out"] = std::move(left_out);
  }
  if (!report.connected.empty()) document["connected"] = report.connected;
  if (const auto& not_made = report.not_made) {
    json::array checks;
    for (const auto& check : not_made->checks) checks.emplace_back(check);
    document["not_made"] = json::object{{"why", not_made->why}, {"checks", std::move(checks)}};
  }
  return document;
}

RunReport run_report_from_json(const json::value& document) {
  const auto& object = object_of(document, "report");
  const auto schema = text(object, "schema", "report");
  if (schema != kSchema && schema != kSentenceSchema) {
    throw std::runtime_error(
        fmt::format("report: schema '{}' is not one this loiter reads ('{}', '{}')", schema,
                    kSchema, kSentenceSchema));
  }
  RunReport report{.loiter_version = text(object, "loiter_version", "report"),
                   .target = text(object, "target", "report"),
                   .target_version = text_or_empty(object, "target_version"),
                   .target_description = text_or_empty(object, "target_description"),
                   .target_tls = tls_from_json(object),
                   .target_protocol = text_or_empty(object, "target_protocol"),
                   .not_run = text_or_empty(object, "not_run"),
                   .started_at = text(object, "started_at", "report"),
                   .scenarios = {}};
  for (const auto& scenario : array(object, "scenarios", "report")) {
    report.scenarios.push_back(scenario_from_json(scenario, schema == kSentenceSchema));
  }
  if (object.contains("left_out")) {
    for (const auto& value : array(object, "left_out", "report")) {
      const auto& entry = object_of(value, "left_out");
      LeftOut group{.protocol = text(entry, "protocol", "left_out"),
                    .why = text(entry, "why", "left_out"),
                    .ids = {}};
      for (const auto& id : array(entry, "ids", "left_out")) {
        if (!id.is_string()) throw std::runtime_error("left_out: key 'ids' must hold strings");
        group.ids.emplace_back(id.get_string());
      }
      report.left_out.push_back(std::move(group));
    }
  }
  report.connected = text_or_empty(object, "connected");
  if (object.contains("not_made")) {
    const auto& entry = object_of(object.at("not_made"), "not_made");
    NotMade not_made{.why = text(entry, "why", "not_made"), .checks = {}};
    for (const auto& check : array(entry, "checks", "not_made")) {
      if (!check.is_string()) throw std::runtime_error("not_made: key 'checks' must hold strings");
      not_made.checks.emplace_back(check.get_string());
    }
    report.not_made = std::move(not_made);
  }
  return report;
}

}  // namespace loiter::reports
