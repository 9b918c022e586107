// denial.json round-trips every field, writes its enums as words and a missing knee or
// descriptor limit as null, names what is malformed, reads from a file or a directory, and
// agrees with SCHEMA.md's denial.json section key by key.
#include "loiter/reports/denial_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "loiter/reports/denial_render.hpp"
#include "loiter/reports/rendered.hpp"
#include "sample_denial.hpp"
#include "schema_doc.hpp"

namespace loiter::reports {
// Named, not anonymous: the unity batch shares one anonymous namespace among the test files.
namespace denial_json_test {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string denial_error(const boost::json::value& document) {
  try {
    denial_from_json(document);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(DenialJson, RoundTripsEveryFieldOfADenialAndAComparison) {
  for (const auto& denial : {testing::sample_denial(), testing::sample_denial_comparison()}) {
    const auto back = denial_from_json(boost::json::parse(denial_text(denial)));
    ASSERT_EQ(back.sides.size(), denial.sides.size());
    for (std::size_t i = 0; i < back.sides.size(); ++i) {
      ASSERT_EQ(back.sides[i].kinds.size(), denial.sides[i].kinds.size());
      for (std::size_t k = 0; k < back.sides[i].kinds.size(); ++k) {
        EXPECT_TRUE(back.sides[i].kinds[k] == denial.sides[i].kinds[k]) << i << " kind " << k;
      }
    }
    EXPECT_TRUE(back.comparison == denial.comparison);
    EXPECT_TRUE(back == denial);
  }
}

TEST(DenialJson, WritesEnumsAsWordsAndWhatIsMissingAsNull) {
  const auto document = to_json(testing::sample_denial());
  EXPECT_EQ(document.at("schema"), "loiter-denial/1");
  EXPECT_EQ(document.at("least_2xx_share"), 0.99);
  const auto& kinds = document.at("sides").at(0).at("kinds");
  const auto& silent = kinds.at(0);
  EXPECT_EQ(silent.at("kind"), "silent");
  EXPECT_EQ(silent.at("knee"), 500);
  EXPECT_EQ(silent.at("steps").at(2).at("cause"), "accept-queue");
  EXPECT_EQ(silent.at("steps").at(0).at("cause"), "none");
  EXPECT_EQ(silent.at("steps").at(2).at("error_kinds").at("connect"), 5870U);
  EXPECT_EQ(silent.at("steps").at(2).at("server_fd_limit"), 16384);
  EXPECT_TRUE(kinds.at(1).at("knee").is_null());
  EXPECT_EQ(kinds.at(1).at("highest"), 10000);
  EXPECT_TRUE(kinds.at(1).at("steps").at(2).at("server_fd_limit").is_null());
  const auto comparison = to_json(testing::sample_denial_comparison()).at("comparison");
  EXPECT_EQ(comparison.at(0).at("change"), "lower");
  EXPECT_EQ(comparison.at(1).at("change"), "same");
  EXPECT_TRUE(comparison.at(1).at("baseline_knee").is_null());
  EXPECT_EQ(comparison.at(2).at("change"), "not-comparable");
  const auto compared = to_json(testing::sample_denial_comparison());
  const auto& sides = compared.at("sides");
  EXPECT_EQ(sides.at(0).at("control").at("held"), 0);
  EXPECT_EQ(sides.at(0).at("control").at("succeeded"), 10000);
  EXPECT_TRUE(sides.at(1).at("control").is_null());
  EXPECT_EQ(sides.at(0).at("kinds").at(2).at("steps").at(1).at("cause"), "connection-cap");
}

// The words of every enum value, and the comparison's answer (lower anywhere: exit 1).
TEST(DenialJson, EnumWordsAndTheComparisonsAnswer) {
  EXPECT_EQ(to_string(DenialCause::fd_limit), "fd-limit");
  EXPECT_EQ(to_string(DenialCause::cpu), "cpu");
  EXPECT_EQ(to_string(DenialCause::unknown), "unknown");
  EXPECT_EQ(to_string(KneeChange::higher), "higher");
  EXPECT_TRUE(candidate_denied_sooner(testing::sample_denial_comparison()));
  EXPECT_FALSE(candidate_denied_sooner(testing::sample_denial()));
  auto higher = testing::sample_denial_comparison();
  higher.comparison[0].change = KneeChange::higher;
  EXPECT_FALSE(candidate_denied_sooner(higher));
}

// Pretty as ladder.json: indented, no exponent.
TEST(DenialJson, IsIndentedWithoutExponents) {
  auto denial = testing::sample_denial();
  denial.sides[0].kinds[0].steps[0].bytes_per_s = 0.00001;
  denial.duration = 123456789.125;
  const auto text = denial_text(denial);
  EXPECT_THAT(text, ::testing::StartsWith("{\n  \"schema\": \"loiter-denial/1\",\n"));
  EXPECT_THAT(text, Not(::testing::ContainsRegex("[0-9][eE][+-]?[0-9]")));
  EXPECT_THAT(text, HasSubstr("\"bytes_per_s\": 0.00001"));
  EXPECT_TRUE(denial_from_json(boost::json::parse(text)) == denial);
}

TEST(DenialJson, RejectsAnotherSchemaAndNamesAMissingOrMalformedKey) {
  auto document = to_json(testing::sample_denial());
  document.as_object()["schema"] = "loiter-ladder/1";
  EXPECT_THAT(denial_error(document), HasSubstr("schema 'loiter-ladder/1'"));
  document = to_json(testing::sample_denial());
  document.at("sides").at(0).at("kinds").at(0).at("steps").at(2).as_object().erase("held");
  EXPECT_THAT(denial_error(document),
              HasSubstr("denial: sides[0].kinds[0].steps[2]: missing key 'held'"));
  document = to_json(testing::sample_denial());
  document.at("sides").at(0).at("kinds").at(0).at("steps").at(1).as_object()["cause"] = "rain";
  EXPECT_THAT(denial_error(document),
              HasSubstr("key 'cause' is 'rain', not one of 'none', 'accept-queue', 'fd-limit', "
                        "'connection-cap', 'cpu', 'unknown', 'client'"));
  document = to_json(testing::sample_denial_comparison());
  document.at("comparison").at(0).as_object()["change"] = "worse";
  EXPECT_THAT(denial_error(document), HasSubstr("denial: comparison[0]: key 'change'"));
}

TEST(DenialJson, ReadsAFileOrItsDirectoryAndTellsADenialDocument) {
  const auto dir =
      fs::temp_directory_path() /
      ("loiter-denial-json-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::create_directories(dir);
  std::ofstream(dir / "denial.json") << denial_text(testing::sample_denial_comparison());
  EXPECT_TRUE(read_denial(dir) == testing::sample_denial_comparison());
  EXPECT_TRUE(read_denial(dir / "denial.json") == testing::sample_denial_comparison());
  EXPECT_TRUE(is_denial(dir));
  std::ofstream(dir / "broken.json") << R"({"schema": "loiter-denial/1"})";
  try {
    read_denial(dir / "broken.json");
    ADD_FAILURE() << "read a denial without its keys";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("broken.json: denial: missing key 'loiter_version'"));
  }
  std::ofstream(dir / "ladder.json") << R"({"schema": "loiter-ladder/1"})";
  EXPECT_FALSE(is_denial(dir / "ladder.json"));
  EXPECT_FALSE(is_denial(dir / "absent.json"));
  EXPECT_THROW(read_denial(dir / "absent.json"), std::runtime_error);
  fs::remove_all(dir);
}

// The keys of every object in denial.json, by the SCHEMA.md table that documents them.
std::map<std::string, std::set<std::string>> written_keys(const boost::json::value& document) {
  std::map<std::string, std::set<std::string>> written;
  const auto keys_of = [&](const boost::json::value& value, const std::string& table) {
    for (const auto& [key, _] : value.as_object()) written[table].insert(std::string(key));
  };
  keys_of(document, "Denial");
  for (const auto& side : document.at("sides").as_array()) {
    keys_of(side, "DenialSide");
    if (const auto& control = side.at("control"); !control.is_null()) {
      keys_of(control, "DenialStep");
    }
    for (const auto& kind : side.at("kinds").as_array()) {
      keys_of(kind, "DenialKind");
      for (const auto& step : kind.at("steps").as_array()) keys_of(step, "DenialStep");
    }
  }
  for (const auto& c : document.at("comparison").as_array()) keys_of(c, "DenialComparison");
  return written;
}

// Every key written is documented in SCHEMA.md's denial.json section, and every one
// documented there is written.
TEST(DenialJson, EveryKeyWrittenIsDocumentedAndEveryDocumentedOneIsWritten) {
  const auto doc = testing::parse_schema(testing::schema_markdown());
  auto written = written_keys(to_json(testing::sample_denial_comparison()));
  std::vector<std::string> problems;
  for (const auto& [table, documented] : doc.denial_keys) {
    auto more = testing::differences(table + " key", documented, written[table]);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  EXPECT_THAT(problems, ::testing::IsEmpty());
  EXPECT_EQ(doc.denial_keys.size(), 5U);
  EXPECT_FALSE(doc.ladder_keys.contains("Denial"));
  EXPECT_FALSE(doc.keys.contains("DenialStep"));
}

// `rendered` gives a denial's every form, as it does a ladder's.
TEST(DenialJson, RenderedGivesEveryForm) {
  const auto denial = testing::sample_denial();
  EXPECT_THAT(rendered(denial, Format::console), HasSubstr("denied at 500 silent"));
  EXPECT_THAT(rendered(denial, Format::html), ::testing::StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(rendered(denial, Format::junit), HasSubstr("<testsuites>"));
}

}  // namespace denial_json_test
}  // namespace loiter::reports
