// survey.json round-trips every field, writes no number in scientific notation, names what
// is malformed, and tells a survey from a run on disk.
#include "loiter/reports/survey_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "loiter/reports/json.hpp"
#include "sample_report.hpp"
#include "sample_survey.hpp"

namespace loiter::reports {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A scratch directory of its own, removed at the end.
struct Scratch {
  fs::path dir =
      fs::temp_directory_path() /
      ("loiter-survey-json-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return dir / name;
  }
};

std::string message_of(const boost::json::value& document) {
  try {
    survey_from_json(document);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(SurveyJson, RoundTripsEveryFieldToAnEqualSurvey) {
  const auto survey = testing::sample_survey();
  const auto back = survey_from_json(boost::json::parse(survey_text(survey)));
  EXPECT_TRUE(back == survey);
  ASSERT_EQ(back.measures.size(), survey.measures.size());
  for (std::size_t i = 0; i < back.measures.size(); ++i) {
    EXPECT_TRUE(back.measures[i] == survey.measures[i]) << survey.measures[i].id;
  }
  EXPECT_EQ(back.schema, kSurveySchema);
}

// Open connections have no time (null), and a probe of no progress says nothing of it.
TEST(SurveyJson, WritesNoTimeAndNoExtendsAsNull) {
  const auto document = to_json(testing::sample_survey());
  const auto& bytes = document.at("measures").at(2);
  EXPECT_TRUE(bytes.at("seconds").is_null());
  EXPECT_EQ(bytes.at("extends"), true);
  EXPECT_TRUE(document.at("measures").at(0).at("extends").is_null());
  EXPECT_EQ(document.at("measures").at(0).at("seconds").at("max"), 2.004);
}

// Tiny and huge times in fixed notation: never "1e-05" or "1.5e+20".
TEST(SurveyJson, WritesNoNumberInScientificNotation) {
  auto survey = testing::sample_survey();
  survey.measures[0].seconds = Spread{.min = 0.00001, .median = 0.000123456, .max = 1.5e20};
  survey.duration = 123456789.125;
  const auto text = survey_text(survey);
  EXPECT_THAT(text, Not(::testing::ContainsRegex("[0-9][eE][+-]?[0-9]")));
  EXPECT_THAT(text, HasSubstr(R"("min": 0.00001)"));
  EXPECT_THAT(text, HasSubstr(R"("median": 0.000123456)"));
  EXPECT_THAT(text, HasSubstr("123456789.125"));
  EXPECT_TRUE(survey_from_json(boost::json::parse(text)) == survey);
}

TEST(SurveyJson, RejectsAnotherSchemaByName) {
  auto document = to_json(testing::sample_survey());
  document.as_object()["schema"] = "loiter-survey/9";
  EXPECT_THAT(message_of(document), HasSubstr("schema 'loiter-survey/9'"));
  document.as_object()["schema"] = "loiter-run/3";
  EXPECT_THAT(message_of(document), HasSubstr("loiter-survey/1"));
}

// A key missing or malformed is named, with where it is: measures[4].endings[1].
TEST(SurveyJson, NamesAMissingOrMalformedKey) {
  auto document = to_json(testing::sample_survey());
  document.as_object().erase("max_wait");
  EXPECT_THAT(message_of(document), HasSubstr("survey: missing key 'max_wait'"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(1).as_object().erase("agreed");
  EXPECT_THAT(message_of(document), HasSubstr("survey: measures[1]: missing key 'agreed'"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(0).at("seconds").as_object()["median"] = "2 s";
  EXPECT_THAT(message_of(document), HasSubstr("survey: measures[0].seconds: key 'median' must be a number"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(0).as_object()["connections"] = -1;
  EXPECT_THAT(message_of(document), HasSubstr("key 'connections' must be a whole number"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(0).as_object()["extends"] = "yes";
  EXPECT_THAT(message_of(document), HasSubstr("key 'extends' must be true or false"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(4).at("endings").at(1).as_object().erase("count");
  EXPECT_THAT(message_of(document), HasSubstr("survey: measures[4].endings[1]: missing key 'count'"));
}

// read_survey takes survey.json or the directory holding it, and names the file it refused.
TEST(SurveyJson, ReadsAFileOrADirectoryAndNamesTheFile) {
  const Scratch scratch;
  const auto file = scratch.write("survey.json", survey_text(testing::sample_survey()));
  EXPECT_TRUE(read_survey(file) == testing::sample_survey());
  EXPECT_TRUE(read_survey(scratch.dir) == testing::sample_survey());
  const auto broken = scratch.write("broken.json", "{\"schema\": \"loiter-survey/1\"}");
  try {
    read_survey(broken);
    FAIL() << "read a survey without its keys";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("broken.json: survey: missing key 'loiter_version'"));
  }
  EXPECT_THROW(read_survey(scratch.dir / "absent.json"), std::runtime_error);
}

// A survey is told from a run (report.json), from other JSON and from nothing at all.
TEST(SurveyJson, TellsASurveyFromARun) {
  const Scratch scratch;
  fs::create_directories(scratch.dir / "survey-dir");
  fs::create_directories(scratch.dir / "run-dir");
  std::ofstream(scratch.dir / "survey-dir" / "survey.json")
      << survey_text(testing::sample_survey());
  std::ofstream(scratch.dir / "run-dir" / "report.json")
      << run_report_text(testing::sample_report());
  EXPECT_TRUE(is_survey(scratch.dir / "survey-dir"));
  EXPECT_TRUE(is_survey(scratch.dir / "survey-dir" / "survey.json"));
  EXPECT_TRUE(is_survey(scratch.write("later.json", R"({"schema": "loiter-survey/2"})")));
  EXPECT_FALSE(is_survey(scratch.dir / "run-dir"));
  EXPECT_FALSE(is_survey(scratch.dir / "run-dir" / "report.json"));
  EXPECT_FALSE(is_survey(scratch.write("text.json", "not json")));
  EXPECT_FALSE(is_survey(scratch.write("array.json", "[1, 2]")));
  EXPECT_FALSE(is_survey(scratch.dir / "nothing-here"));
}

}  // namespace
}  // namespace loiter::reports
