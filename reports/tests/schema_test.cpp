// report.json, survey.json and ladder.json agree with SCHEMA.md key by key: every key to_json
// writes is documented, and every documented key is written. A renamed key fails here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "loiter/reports/json.hpp"
#include "loiter/reports/ladder_json.hpp"
#include "loiter/reports/survey_json.hpp"
#include "sample_ladder.hpp"
#include "sample_report.hpp"
#include "sample_survey.hpp"
#include "schema_doc.hpp"

namespace loiter::reports {
namespace {

using testing::Documented;
using ::testing::HasSubstr;
namespace json = boost::json;

using Written = std::map<std::string, std::set<std::string>>;  // table -> keys seen

void keys_of(const json::value& value, const std::string& table, Written& written) {
  for (const auto& [key, _] : value.as_object()) written[table].insert(std::string(key));
}

// The keys of every object in report.json, by the SCHEMA.md table that documents them.
Written written_keys(const json::value& document) {
  Written written;
  keys_of(document, "Report", written);
  if (const auto* tls = document.as_object().if_contains("target_tls")) {
    keys_of(*tls, "TargetTls", written);
  }
  if (const auto* left_out = document.as_object().if_contains("left_out")) {
    for (const auto& group : left_out->as_array()) keys_of(group, "LeftOut", written);
  }
  if (const auto* not_made = document.as_object().if_contains("not_made")) {
    keys_of(*not_made, "NotMade", written);
  }
  for (const auto& scenario : document.at("scenarios").as_array()) {
    keys_of(scenario, "Scenario", written);
    for (const auto& finding : scenario.at("findings").as_array()) {
      keys_of(finding, "Finding", written);
    }
    for (const auto& group : scenario.at("figures").as_array()) {
      keys_of(group, "FigureGroup", written);
      for (const auto& value : group.at("values").as_array()) keys_of(value, "Value", written);
    }
    for (const auto& plot : scenario.at("plots").as_array()) {
      keys_of(plot, "Plot", written);
      for (const auto& series : plot.at("series").as_array()) keys_of(series, "Series", written);
      for (const auto& mark : plot.at("marks").as_array()) keys_of(mark, "Mark", written);
    }
  }
  return written;
}

// The keys of every object in survey.json, by the SCHEMA.md table that documents them.
Written written_survey_keys(const json::value& document) {
  Written written;
  keys_of(document, "Survey", written);
  if (const auto& server = document.at("server"); !server.is_null()) {
    keys_of(server, "SurveyServer", written);
  }
  for (const auto& measure : document.at("measures").as_array()) {
    keys_of(measure, "SurveyMeasure", written);
    if (const auto& seconds = measure.at("seconds"); !seconds.is_null()) {
      keys_of(seconds, "Spread", written);
    }
    for (const auto& ending : measure.at("endings").as_array()) {
      keys_of(ending, "EndingCount", written);
    }
  }
  return written;
}

// The keys of every object in ladder.json, by the SCHEMA.md table that documents them
// (error_kinds' keys are the generator's names, not the schema's).
Written written_ladder_keys(const json::value& document) {
  Written written;
  keys_of(document, "Ladder", written);
  for (const auto& side : document.at("sides").as_array()) {
    keys_of(side, "LadderSide", written);
    for (const auto& step : side.at("steps").as_array()) {
      keys_of(step, "LadderStep", written);
      for (const auto& trial : step.at("trials").as_array()) keys_of(trial, "LadderTrial", written);
    }
  }
  for (const auto& figure : document.at("comparison").as_array()) {
    keys_of(figure, "PairedFigure", written);
  }
  return written;
}

std::vector<std::string> key_problems(const std::map<std::string, std::vector<Documented>>& tables,
                                      const Written& written) {
  std::vector<std::string> problems;
  for (const auto& [table, documented] : tables) {
    const auto seen = written.contains(table) ? written.at(table) : std::set<std::string>{};
    auto more = testing::differences(table + " key", documented, seen);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  return problems;
}

// Every key of the sample run document is documented in SCHEMA.md, and every documented key
// is written.
TEST(Schema, EveryKeyWrittenIsDocumentedAndEveryDocumentedKeyIsWritten) {
  const auto doc = testing::parse_schema(testing::schema_markdown());
  const auto problems =
      key_problems(doc.keys, written_keys(to_json(testing::sample_connected_report())));
  EXPECT_THAT(problems, ::testing::IsEmpty());
}

// A key renamed in the document (or the writer) is reported both ways, by name.
TEST(Schema, ARenamedKeyIsReportedBothWays) {
  auto markdown = testing::schema_markdown();
  const std::string key = "| `started_at` |";
  ASSERT_NE(markdown.find(key), std::string::npos);
  markdown.replace(markdown.find(key), key.size(), "| `started` |");
  const auto problems = key_problems(testing::parse_schema(markdown).keys,
                                     written_keys(to_json(testing::sample_connected_report())));
  EXPECT_THAT(problems, ::testing::UnorderedElementsAre(
                            HasSubstr("Report key 'started_at' is written but not in SCHEMA.md"),
                            HasSubstr("Report key 'started' is in SCHEMA.md but never written")));
}

// Every key of the sample survey is documented in SCHEMA.md's survey.json section, and every
// documented key is written.
TEST(Schema, EverySurveyKeyWrittenIsDocumentedAndEveryDocumentedOneIsWritten) {
  const auto doc = testing::parse_schema(testing::schema_markdown());
  const auto written = written_survey_keys(to_json(testing::sample_survey()));
  EXPECT_THAT(key_problems(doc.survey_keys, written), ::testing::IsEmpty());
  // The run document's tables hold none of the survey's keys, nor the other way round.
  EXPECT_FALSE(doc.keys.contains("Survey"));
  EXPECT_FALSE(doc.survey_keys.contains("Report"));
}

// A survey key renamed in SCHEMA.md is reported both ways, by name.
TEST(Schema, ARenamedSurveyKeyIsReportedBothWays) {
  auto markdown = testing::schema_markdown();
  const std::string key = "| `max_wait` |";
  ASSERT_NE(markdown.find(key), std::string::npos);
  markdown.replace(markdown.find(key), key.size(), "| `wait` |");
  const auto problems = key_problems(testing::parse_schema(markdown).survey_keys,
                                     written_survey_keys(to_json(testing::sample_survey())));
  EXPECT_THAT(problems, ::testing::UnorderedElementsAre(
                            HasSubstr("Survey key 'max_wait' is written but not in SCHEMA.md"),
                            HasSubstr("Survey key 'wait' is in SCHEMA.md but never written")));
}

// Every key of the sample ladders (one alone, one comparison: every table between them) is
// documented in SCHEMA.md's ladder.json section, and every documented key is written.
TEST(Schema, EveryLadderKeyWrittenIsDocumentedAndEveryDocumentedOneIsWritten) {
  const auto doc = testing::parse_schema(testing::schema_markdown());
  auto written = written_ladder_keys(to_json(testing::sample_ladder()));
  for (const auto& [table, keys] : written_ladder_keys(to_json(testing::sample_comparison()))) {
    written[table].insert(keys.begin(), keys.end());
  }
  EXPECT_THAT(key_problems(doc.ladder_keys, written), ::testing::IsEmpty());
  EXPECT_FALSE(doc.keys.contains("Ladder"));
  EXPECT_FALSE(doc.survey_keys.contains("Ladder"));
  EXPECT_FALSE(doc.ladder_keys.contains("Survey"));
}

// A ladder key renamed in SCHEMA.md is reported both ways, by name.
TEST(Schema, ARenamedLadderKeyIsReportedBothWays) {
  auto markdown = testing::schema_markdown();
  const std::string key = "| `knee_note` |";
  ASSERT_NE(markdown.find(key), std::string::npos);
  markdown.replace(markdown.find(key), key.size(), "| `knee_why` |");
  const auto problems = key_problems(testing::parse_schema(markdown).ladder_keys,
                                     written_ladder_keys(to_json(testing::sample_comparison())));
  EXPECT_THAT(problems,
              ::testing::UnorderedElementsAre(
                  HasSubstr("LadderSide key 'knee_note' is written but not in SCHEMA.md"),
                  HasSubstr("LadderSide key 'knee_why' is in SCHEMA.md but never written")));
}

// Placeholders in documented names stand for any text; optional names need not be written.
TEST(Schema, PlaceholdersFitAnyTextAndOptionalNamesMayBeAbsent) {
  EXPECT_TRUE(testing::fits("closure-<kind>", "closure-silent"));
  EXPECT_FALSE(testing::fits("closure-<kind>", "closure-"));
  EXPECT_TRUE(testing::fits("server <STATE>", "server CLOSE_WAIT"));
  EXPECT_FALSE(testing::fits("fds", "fds2"));
  const std::vector<Documented> documented{{"id", false}, {"extra", true}};
  EXPECT_THAT(testing::differences("key", documented, {"id"}), ::testing::IsEmpty());
  EXPECT_THAT(testing::differences("key", documented, {}),
              ::testing::ElementsAre("key 'id' is in SCHEMA.md but never written"));
}

}  // namespace
}  // namespace loiter::reports
