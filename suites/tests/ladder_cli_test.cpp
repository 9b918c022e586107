// `loiter ladder` end to end against the reference server: a short ladder written as
// ladder.json, ladder.html and JUnit, its knee moved down by a planted per-request cost; the
// paired comparison finding that cost (exit 1) and finding nothing in a build against itself
// (exit 0); and its inputs refused before any server starts (exit 2).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace testing;
using ::testing::HasSubstr;

// `loiter ladder ARGS...` with its runs under `tmp/runs`; the exit status, output in tmp/out.
int ladder(const TempDir& tmp, std::vector<std::string> args) {
  std::vector<std::string> argv{LOITER_BINARY, "ladder", "--runs", (tmp.path() / "runs").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, tmp.path() / "out", 110);
}

json::object ladder_json(const TempDir& tmp) {
  return json::parse(read_text(only_run_directory(tmp.path() / "runs") / "ladder.json"))
      .as_object();
}

// The verdicts of the paired figures named `figure`.
std::vector<std::string> verdicts(const json::object& doc, std::string_view figure) {
  std::vector<std::string> found;
  for (const auto& item : doc.at("comparison").as_array()) {
    const auto& paired = item.as_object();
    if (paired.at("figure").as_string() == figure) {
      found.emplace_back(paired.at("verdict").as_string().c_str());
    }
  }
  return found;
}

TEST(LadderCli, ARateLadderWritesItsDocumentPageAndJUnit) {
  TempDir tmp;
  const auto junit = tmp.path() / "ladder.xml";
  ASSERT_EQ(ladder(tmp, {"--rates", "500,1000", "--saturation", "16", "--trials", "1", "--duration",
                         "1", "--junit", junit.string()}),
            0)
      << read_text(tmp.path() / "out");
  const auto doc = ladder_json(tmp);
  EXPECT_EQ(doc.at("schema").as_string(), "loiter-ladder/1");
  const auto& side = doc.at("sides").as_array().at(0).as_object();
  const auto& steps = side.at("steps").as_array();
  ASSERT_EQ(steps.size(), 3u);
  const auto& first = steps.at(0).as_object();
  const auto& trial = first.at("trials").as_array().at(0).as_object();
  EXPECT_EQ(trial.at("requested").to_number<double>(), 500);   // 500/s for 1 s
  EXPECT_GT(trial.at("server_cpu_s").to_number<double>(), 0);  // the server's CPU was read
  EXPECT_EQ(steps.at(2).as_object().at("kind").as_string(), "saturation");
  EXPECT_GT(steps.at(2).as_object().at("succeeded_rate").to_number<double>(), 1000);
  const auto directory = only_run_directory(tmp.path() / "runs");
  EXPECT_THAT(read_text(directory / "ladder.html"), HasSubstr("<svg"));
  EXPECT_THAT(read_text(junit), HasSubstr("<testsuite"));
}

// 100 µs of CPU a request caps a single-threaded server near 10,000/s: at 12,000/s the
// answers fall behind and the p99 passes the bound, the server's limit, not the client's.
TEST(LadderCli, APlantedPerRequestCostBringsTheKneeDownToTheServersLimit) {
  TempDir tmp;
  ASSERT_EQ(ladder(tmp, {"--fault", "slow-under-load", "--rates", "1000,12000", "--saturation",
                         "none", "--trials", "1", "--duration", "2"}),
            0)
      << read_text(tmp.path() / "out");
  const auto doc = ladder_json(tmp);
  const auto& side = doc.at("sides").as_array().at(0).as_object();
  ASSERT_TRUE(side.at("knee").is_number()) << read_text(tmp.path() / "out");
  EXPECT_EQ(side.at("knee").to_number<double>(), 1000);
  const auto& high = side.at("steps").as_array().at(1).as_object();
  EXPECT_EQ(high.at("within").as_bool(), false);
  EXPECT_EQ(high.at("limit").as_string(), "server") << read_text(tmp.path() / "out");
}

// Six pairs of 0.5 s closed loops on 32 connections, ABBA: the planted cost shows as fewer
// requests/s and more server CPU a request in every pair (exit 1, the CPU figure "worse").
TEST(LadderCli, ThePairedComparisonFindsAPlantedPerRequestCost) {
  TempDir tmp;
  EXPECT_EQ(ladder(tmp, {"--baseline", "reference", "--candidate", "reference", "--candidate-fault",
                         "slow-under-load", "--rates", "none", "--saturation", "32", "--trials",
                         "6", "--duration", "0.5"}),
            1)
      << read_text(tmp.path() / "out");
  const auto doc = ladder_json(tmp);
  EXPECT_THAT(verdicts(doc, "server CPU/request"), ::testing::ElementsAre("worse"));
  EXPECT_THAT(verdicts(doc, "requests/s"), ::testing::ElementsAre("worse"));
}

// The same build against itself: eight pairs of 0.5 s trials (the sign test's interval at 99%), no
// figure worse beyond the 5% tolerance with its interval on the worse side: exit 0.
TEST(LadderCli, TheSameBuildAgainstItselfEstablishesNoDifference) {
  TempDir tmp;
  EXPECT_EQ(ladder(tmp, {"--baseline", "reference", "--candidate", "reference", "--rates", "none",
                         "--saturation", "32", "--trials", "8", "--duration", "0.5"}),
            0)
      << read_text(tmp.path() / "out");
  const auto doc = ladder_json(tmp);
  EXPECT_THAT(verdicts(doc, "server CPU/request"), ::testing::Not(::testing::Contains("worse")));
  EXPECT_EQ(doc.at("comparison").as_array().size(), 3u);
}

TEST(LadderCli, RefusesWhatItCannotRunBeforeAnyServerStarts) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--baseline", "reference"}, "needs both --baseline and --candidate"},
      {{"--rates", "none", "--saturation", "none"}, "leave nothing to run"},
      {{"--tolerance", "150%"}, "is not a share"},
      {{"--rates", "1000,fast"}, "'fast' is not a positive rate"},
      {{"--saturation", "6.5"}, "whole number of connections"},
      {{"--candidate-fault", "slow-under-load"}, "goes with --baseline and --candidate"},
      {{"--baseline", "reference", "--candidate", "reference-h2c"}, "different protocols"},
      {{"--fault", "no-such-fault"}, "no-such-fault"}};
  for (const auto& [args, message] : cases) {
    TempDir tmp;
    EXPECT_EQ(ladder(tmp, args), 2) << message;
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message));
    EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << message;
  }
}

}  // namespace
}  // namespace loiter::suites
