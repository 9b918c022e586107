// A run directory is never overwritten, and holds one raw record line per connection and
// the report rendered from the run document.
#include "loiter/suites/document/run_directory.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path path =
      fs::temp_directory_path() / ("loiter-run-dir-test-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Scratch() { fs::remove_all(path); }
  ~Scratch() { fs::remove_all(path); }
};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RunDirectory, ATakenNameGetsASuffix) {
  Scratch scratch;
  fs::create_directories(scratch.path / "20261201T020000Z-reference");
  fs::create_directories(scratch.path / "20261201T020000Z-reference-2");
  EXPECT_EQ(unused_run_path(scratch.path, "20261201T020000Z", "reference"),
            scratch.path / "20261201T020000Z-reference-3");
  EXPECT_EQ(unused_run_path(scratch.path, "20261201T020000Z", "my server/1").filename(),
            "20261201T020000Z-my_server_1");
}

TEST(RunDirectory, KeepsOneRecordLinePerConnectionAndTheReports) {
  Scratch scratch;
  RunDirectory first(scratch.path, "reference");
  RunDirectory second(scratch.path, "reference");
  EXPECT_NE(first.path(), second.path());
  ScenarioResult result{.id = "silent"};
  for (int i = 0; i < 3; ++i) {
    clients::ConnectionRecord record;
    record.kind = "silent";
    record.connect_start = clients::Clock::now();
    record.ending = clients::Ending::close;
    result.observation.connections.push_back(record);
  }
  first.add_scenario(result);
  first.write_report({.loiter_version = "0.1.0",
                      .target = "reference",
                      .started_at = "now",
                      .scenarios = {{.id = "silent"}}});
  const auto records = read(first.path() / "records/silent.jsonl");
  EXPECT_EQ(std::ranges::count(records, '\n'), 3);
  EXPECT_THAT(records, ::testing::HasSubstr(R"("ending": "close")"));
  EXPECT_THAT(read(first.path() / "report.json"), ::testing::HasSubstr("loiter-run/3"));
  EXPECT_THAT(read(first.path() / "report.html"), ::testing::HasSubstr("<!DOCTYPE html>"));
  EXPECT_TRUE(fs::exists(first.path() / "timeline/silent.json"));
  EXPECT_TRUE(fs::exists(first.path() / "provenance.json"));
}

}  // namespace
}  // namespace loiter::suites
