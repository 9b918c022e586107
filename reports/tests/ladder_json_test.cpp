// ladder.json round-trips every field, writes its enums as words and a missing knee as null,
// names what is malformed, and reads from a file or a directory.
#include "loiter/reports/ladder_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "loiter/reports/ladder_render.hpp"
#include "sample_ladder.hpp"

namespace loiter::reports {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string ladder_error(const boost::json::value& document) {
  try {
    ladder_from_json(document);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(LadderJson, RoundTripsEveryFieldOfALadderAndAComparison) {
  for (const auto& ladder : {testing::sample_ladder(), testing::sample_comparison()}) {
    const auto back = ladder_from_json(boost::json::parse(ladder_text(ladder)));
    ASSERT_EQ(back.sides.size(), ladder.sides.size());
    for (std::size_t i = 0; i < back.sides.size(); ++i) {
      ASSERT_EQ(back.sides[i].steps.size(), ladder.sides[i].steps.size());
      for (std::size_t k = 0; k < back.sides[i].steps.size(); ++k) {
        EXPECT_TRUE(back.sides[i].steps[k] == ladder.sides[i].steps[k]) << i << " step " << k;
      }
      EXPECT_TRUE(back.sides[i] == ladder.sides[i]) << ladder.sides[i].role;
    }
    EXPECT_TRUE(back.comparison == ladder.comparison);
    EXPECT_TRUE(back == ladder);
  }
}

TEST(LadderJson, WritesEnumsAsWordsAndNoKneeAsNull) {
  auto ladder = testing::sample_ladder();
  const auto document = to_json(ladder);
  const auto& steps = document.at("sides").at(0).at("steps");
  EXPECT_EQ(document.at("schema"), "loiter-ladder/1");
  EXPECT_EQ(steps.at(0).at("kind"), "rate");
  EXPECT_EQ(steps.at(2).at("limit"), "client");
  EXPECT_EQ(steps.at(3).at("kind"), "saturation");
  EXPECT_EQ(steps.at(0).at("limit"), "none");
  EXPECT_EQ(document.at("sides").at(0).at("knee"), 20000);
  EXPECT_EQ(steps.at(2).at("trials").at(2).at("error_kinds").at("timeout"), 9U);
  const auto comparison = to_json(testing::sample_comparison());
  EXPECT_EQ(comparison.at("comparison").at(0).at("verdict"), "worse");
  EXPECT_EQ(comparison.at("comparison").at(1).at("verdict"), "no-difference");
  EXPECT_EQ(comparison.at("comparison").at(3).at("verdict"), "within-tolerance");
  ladder.sides[0].knee.reset();
  const auto text = ladder_text(ladder);
  EXPECT_THAT(text, HasSubstr("\"knee\": null"));
  EXPECT_FALSE(ladder_from_json(boost::json::parse(text)).sides[0].knee.has_value());
}

// Pretty as survey.json: indented, a series of numbers on one line, no exponent.
TEST(LadderJson, IsIndentedWithoutExponents) {
  auto ladder = testing::sample_comparison();
  ladder.comparison[0].low = 0.00001;
  ladder.duration = 123456789.125;
  const auto text = ladder_text(ladder);
  EXPECT_THAT(text, ::testing::StartsWith("{\n  \"schema\": \"loiter-ladder/1\",\n"));
  EXPECT_THAT(text, HasSubstr("\"baseline\": [1.5,1.4,1.6,1.5,1.55]"));
  EXPECT_THAT(text, Not(::testing::ContainsRegex("[0-9][eE][+-]?[0-9]")));
  EXPECT_THAT(text, HasSubstr("\"low\": 0.00001"));
  EXPECT_TRUE(ladder_from_json(boost::json::parse(text)) == ladder);
}

TEST(LadderJson, RejectsAnotherSchemaByName) {
  auto document = to_json(testing::sample_ladder());
  document.as_object()["schema"] = "loiter-survey/1";
  EXPECT_THAT(ladder_error(document), HasSubstr("schema 'loiter-survey/1'"));
  EXPECT_THAT(ladder_error(document), HasSubstr("loiter-ladder/1"));
}

// A key missing or malformed is named, with where it is: sides[0].steps[1].trials[0].
TEST(LadderJson, NamesAMissingOrMalformedKeyWhereItIs) {
  auto document = to_json(testing::sample_ladder());
  document.as_object().erase("trial_seconds");
  EXPECT_THAT(ladder_error(document), HasSubstr("ladder: missing key 'trial_seconds'"));
  document = to_json(testing::sample_ladder());
  document.at("sides").at(0).at("steps").at(2).as_object()["limit"] = "loiter";
  EXPECT_THAT(ladder_error(document),
              HasSubstr("ladder: sides[0].steps[2]: key 'limit' is 'loiter', not one of "
                        "'none', 'client', 'server', 'both'"));
  document = to_json(testing::sample_ladder());
  document.at("sides").at(0).at("steps").at(1).at("trials").at(0).as_object().erase("p99_ms");
  EXPECT_THAT(ladder_error(document),
              HasSubstr("ladder: sides[0].steps[1].trials[0]: missing key 'p99_ms'"));
  document = to_json(testing::sample_comparison());
  document.at("comparison").at(2).as_object()["errors"] = 1;
  document.at("comparison").at(2).as_object()["change"] = "+8%";
  EXPECT_THAT(ladder_error(document),
              HasSubstr("ladder: comparison[2]: key 'change' must be an array"));
  document = to_json(testing::sample_ladder());
  document.at("sides").at(0).at("steps").at(0).as_object()["connections"] = -1;
  EXPECT_THAT(ladder_error(document), HasSubstr("key 'connections' must be a whole number"));
}

TEST(LadderJson, ReadsAFileOrItsDirectoryAndNamesTheFile) {
  const auto dir =
      fs::temp_directory_path() /
      ("loiter-ladder-json-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::create_directories(dir);
  std::ofstream(dir / "ladder.json") << ladder_text(testing::sample_comparison());
  EXPECT_TRUE(read_ladder(dir) == testing::sample_comparison());
  EXPECT_TRUE(read_ladder(dir / "ladder.json") == testing::sample_comparison());
  std::ofstream(dir / "broken.json") << R"({"schema": "loiter-ladder/1"})";
  try {
    read_ladder(dir / "broken.json");
    ADD_FAILURE() << "read a ladder without its keys";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("broken.json: ladder: missing key 'loiter_version'"));
  }
  EXPECT_THROW(read_ladder(dir / "absent.json"), std::runtime_error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace loiter::reports
