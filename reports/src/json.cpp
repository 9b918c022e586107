// report.json: the run document as JSON (schema in reports/SCHEMA.md), and back: its structs
// described, the codec (described_json.hpp) does the rest; findings and plots are described
// in json_finding.hpp and json_plot.hpp.
#include "loiter/reports/json.hpp"

#include <fmt/format.h>

#include <boost/describe/class.hpp>

#include "json_finding.hpp"
#include "json_plot.hpp"
#include "loiter/reports/described_json.hpp"

namespace loiter::reports {

BOOST_DESCRIBE_STRUCT(FigureGroup, (), (name, unit, values))
BOOST_DESCRIBE_STRUCT(ScenarioReport, (), (id, status, note, findings, figures, plots))
BOOST_DESCRIBE_STRUCT(TargetTls, (), (alpn, server_name, handshake_s, header_from))
BOOST_DESCRIBE_STRUCT(LeftOut, (), (protocol, why, ids, families))
BOOST_DESCRIBE_STRUCT(NotMade, (), (why, checks))
// All but "schema", which comes first and says how the rest is read.
BOOST_DESCRIBE_STRUCT(RunReport, (),
                      (loiter_version, target, target_version, target_description, target_tls,
                       target_protocol, not_run, started_at, scenarios, left_out, connected,
                       not_made))

// A figure group's value, as the document holds it: {"name": "min", "value": 1.002}.
struct FigureValue {
  std::string name;
  std::optional<double> value;
};
BOOST_DESCRIBE_STRUCT(FigureValue, (), (name, value))

}  // namespace loiter::reports

namespace loiter::reports::described {

template <>
inline constexpr const char* kKey<&TargetTls::handshake_s> = "handshake";

// What only some runs have: a TLS target, the protocol said, why a target was not run, the
// scenarios left out, a server loiter did not start, the checks not made.
template <>
inline constexpr auto kWhenSet<RunReport> = std::tuple(&RunReport::target_tls,
                                                       &RunReport::target_protocol,
                                                       &RunReport::not_run, &RunReport::left_out,
                                                       &RunReport::connected, &RunReport::not_made);
// A left-out group's families: absent in documents written before them.
template <>
inline constexpr auto kWhenSet<LeftOut> = std::tuple(&LeftOut::families);
template <>
inline constexpr auto kAddedLater<RunReport> = std::tuple(&RunReport::target_version,
                                                          &RunReport::target_description);

template <>
struct Codec<Status> : EnumWords<Status, kStatuses> {};

// A figure group's values, each a FigureValue object rather than a [name, value] pair.
template <>
struct Codec<std::pair<std::string, std::optional<double>>> {
  static json::value write(const std::pair<std::string, std::optional<double>>& value) {
    return described::write(FigureValue{.name = value.first, .value = value.second});
  }
  static std::pair<std::string, std::optional<double>> read(const json::value& json) {
    auto value = described::read<FigureValue>(json);
    return {std::move(value.name), value.value};
  }
};

}  // namespace loiter::reports::described

namespace loiter::reports {

namespace {

// The schema before findings were data, still read: a scenario's findings were sentences.
constexpr std::string_view kSentenceSchema = "loiter-run/2";

struct SentenceScenario {
  std::string id;
  Status status = Status::pass;
  std::vector<std::string> findings;
};
BOOST_DESCRIBE_STRUCT(SentenceScenario, (), (id, status, findings))
struct SentenceRun {
  std::vector<SentenceScenario> scenarios;
};
BOOST_DESCRIBE_STRUCT(SentenceRun, (), (scenarios))

// A loiter-run/2 document: its sentences read first, then the rest as loiter-run/3 reads it;
// each sentence a finding with code "text", its class from its scenario's status.
RunReport sentence_report_from_json(boost::json::value document) {
  const auto sentences = described::read<SentenceRun>(document);
  if (auto* scenarios = document.as_object().if_contains("scenarios")) {
    for (auto& scenario : scenarios->as_array()) scenario.as_object().erase("findings");
  }
  auto report = described::read<RunReport>(document);
  for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
    auto& scenario = report.scenarios[i];
    for (const auto& sentence : sentences.scenarios.at(i).findings) {
      scenario.findings.push_back(finding_from_sentence(sentence, scenario.id, scenario.status));
    }
  }
  return report;
}

}  // namespace

boost::json::value to_json(const RunReport& report) {
  boost::json::object document{{"schema", kSchema}};
  auto members = described::write(report);
  for (auto& [key, value] : members.as_object()) document.emplace(key, std::move(value));
  return document;
}

RunReport run_report_from_json(const boost::json::value& document) {
  const auto* object = document.if_object();
  const auto* said = object ? object->if_contains("schema") : nullptr;
  if (said == nullptr || !said->is_string()) {
    throw std::runtime_error("report: missing key 'schema'");
  }
  const std::string_view schema = said->get_string();
  if (schema != kSchema && schema != kSentenceSchema) {
    throw std::runtime_error(
        fmt::format("report: schema '{}' is not one this loiter reads ('{}', '{}')", schema,
                    kSchema, kSentenceSchema));
  }
  try {
    return schema == kSchema ? described::read<RunReport>(document)
                             : sentence_report_from_json(document);
  } catch (const described::ReadError& e) {
    throw std::runtime_error(std::string("report: ") + e.what());
  }
}

}  // namespace loiter::reports
