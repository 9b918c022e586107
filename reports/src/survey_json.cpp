// survey.json: the survey document as JSON (schema in reports/SCHEMA.md), and back.
#include "loiter/reports/survey_json.hpp"

#include "json_access.hpp"

namespace loiter::reports {

namespace {

using namespace json_access;

json::value spread_to_json(const std::optional<Spread>& spread) {
  if (!spread) return nullptr;
  return json::object{{"min", number(spread->min)},
                      {"median", number(spread->median)},
                      {"max", number(spread->max)}};
}

json::object measure_to_json(const SurveyMeasure& m) {
  json::array endings;
  for (const auto& e : m.endings) {
    endings.push_back(json::object{{"ending", e.ending}, {"count", e.count}});
  }
  json::value extends = nullptr;
  if (m.extends) extends = *m.extends;
  return {{"id", m.id},
          {"title", m.title},
          {"kind", m.kind},
          {"from", m.from},
          {"interval", m.interval},
          {"connections", m.connections},
          {"agreed", m.agreed},
          {"seconds", spread_to_json(m.seconds)},
          {"ending", m.ending},
          {"endings", std::move(endings)},
          {"extends", std::move(extends)},
          {"runs_from", m.runs_from},
          {"exposure", m.exposure},
          {"note", m.note},
          {"not_measured", m.not_measured}};
}

std::optional<bool> maybe_bool_of(const json::object& object, std::string_view key,
                                  std::string_view where) {
  if (field(object, key, where).is_null()) return std::nullopt;
  return bool_of(object, key, where);
}

std::optional<Spread> spread_from_json(const json::object& measure, const std::string& where) {
  const auto& value = field(measure, "seconds", where);
  if (value.is_null()) return std::nullopt;
  const auto inner = where + ": seconds";
  const auto& object = object_of(value, inner);
  return Spread{.min = decimal_of(object, "min", inner),
                .median = decimal_of(object, "median", inner),
                .max = decimal_of(object, "max", inner)};
}

std::vector<EndingCount> endings_from_json(const json::object& measure, const std::string& where) {
  std::vector<EndingCount> endings;
  const auto inner = where + ": endings";
  for (const auto& entry : array(measure, "endings", where)) {
    const auto& object = object_of(entry, inner);
    endings.push_back(
        {.ending = text(object, "ending", inner), .count = count_of(object, "count", inner)});
  }
  return endings;
}

SurveyMeasure measure_from_json(const json::value& value) {
  const auto& object = object_of(value, "measure");
  SurveyMeasure m{.id = text(object, "id", "measure")};
  const auto where = "measure " + m.id;
  m.title = text(object, "title", where);
  m.kind = text(object, "kind", where);
  m.from = text(object, "from", where);
  m.interval = text(object, "interval", where);
  m.connections = count_of(object, "connections", where);
  m.agreed = count_of(object, "agreed", where);
  m.seconds = spread_from_json(object, where);
  m.ending = text(object, "ending", where);
  m.endings = endings_from_json(object, where);
  m.extends = maybe_bool_of(object, "extends", where);
  m.runs_from = text(object, "runs_from", where);
  m.exposure = text(object, "exposure", where);
  m.note = text(object, "note", where);
  m.not_measured = text(object, "not_measured", where);
  return m;
}

json::value server_to_json(const std::optional<SurveyServer>& server) {
  if (!server) return nullptr;
  return json::object{{"pid", server->pid},
                      {"fds_before", server->fds_before},
                      {"fds_peak", server->fds_peak},
                      {"fds_after", server->fds_after},
                      {"fds_back", server->fds_back},
                      {"rss_before_mib", number(server->rss_before_mib)},
                      {"rss_peak_mib", number(server->rss_peak_mib)}};
}

std::optional<SurveyServer> server_from_json(const json::object& survey) {
  constexpr std::string_view kWhere = "survey: server";
  const auto& value = field(survey, "server", "survey");
  if (value.is_null()) return std::nullopt;
  const auto& object = object_of(value, kWhere);
  return SurveyServer{.pid = static_cast<int>(count_of(object, "pid", kWhere)),
                      .fds_before = count_of(object, "fds_before", kWhere),
                      .fds_peak = count_of(object, "fds_peak", kWhere),
                      .fds_after = count_of(object, "fds_after", kWhere),
                      .fds_back = bool_of(object, "fds_back", kWhere),
                      .rss_before_mib = decimal_of(object, "rss_before_mib", kWhere),
                      .rss_peak_mib = decimal_of(object, "rss_peak_mib", kWhere)};
}

}  // namespace

json::value to_json(const Survey& survey) {
  json::array measures;
  for (const auto& measure : survey.measures) measures.push_back(measure_to_json(measure));
  return json::object{{"schema", kSurveySchema},
                      {"loiter_version", survey.loiter_version},
                      {"target", survey.target},
                      {"endpoint", survey.endpoint},
                      {"protocol", survey.protocol},
                      {"tls", survey.tls},
                      {"started", survey.started},
                      {"duration", number(survey.duration)},
                      {"connections", survey.connections},
                      {"max_wait", number(survey.max_wait)},
                      {"slack", number(survey.slack)},
                      {"measures", std::move(measures)},
                      {"server", server_to_json(survey.server)},
                      {"problems", json::array(survey.problems.begin(), survey.problems.end())},
                      {"interrupted", survey.interrupted}};
}

Survey survey_from_json(const json::value& document) {
  constexpr std::string_view kWhere = "survey";
  const auto& object = object_of(document, kWhere);
  Survey survey{.schema = text(object, "schema", kWhere)};
  if (survey.schema != kSurveySchema) {
    throw std::runtime_error(fmt::format("survey: schema '{}' is not one this loiter reads ('{}')",
                                         survey.schema, kSurveySchema));
  }
  survey.loiter_version = text(object, "loiter_version", kWhere);
  survey.target = text(object, "target", kWhere);
  survey.endpoint = text(object, "endpoint", kWhere);
  survey.protocol = text(object, "protocol", kWhere);
  survey.tls = bool_of(object, "tls", kWhere);
  survey.started = text(object, "started", kWhere);
  survey.duration = decimal_of(object, "duration", kWhere);
  survey.connections = count_of(object, "connections", kWhere);
  survey.max_wait = decimal_of(object, "max_wait", kWhere);
  survey.slack = decimal_of(object, "slack", kWhere);
  for (const auto& measure : array(object, "measures", kWhere)) {
    survey.measures.push_back(measure_from_json(measure));
  }
  survey.server = server_from_json(object);
  for (const auto& problem : array(object, "problems", kWhere)) {
    if (!problem.is_string()) {
      throw std::runtime_error("survey: key 'problems' must hold strings");
    }
    survey.problems.emplace_back(problem.get_string());
  }
  survey.interrupted = bool_of(object, "interrupted", kWhere);
  return survey;
}

}  // namespace loiter::reports
