// A run directory is never overwritten (nor shared by runs started at once), and holds one raw
// record line per connection and the report rendered from the run document.
#include "loiter/suites/document/run_directory.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <latch>
#include <sstream>
#include <thread>

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

// A taken name gets the next free suffix, and the name made is file-safe.
TEST(RunDirectory, ATakenNameGetsASuffix) {
  Scratch scratch;
  fs::create_directories(scratch.path / "20261201T020000Z-reference");
  fs::create_directories(scratch.path / "20261201T020000Z-reference-2");
  EXPECT_EQ(make_run_path(scratch.path, "20261201T020000Z", "reference"),
            scratch.path / "20261201T020000Z-reference-3");
  EXPECT_TRUE(fs::is_directory(scratch.path / "20261201T020000Z-reference-3"));
  EXPECT_EQ(make_run_path(scratch.path, "20261201T020000Z", "my server/1").filename(),
            "20261201T020000Z-my_server_1");
}

// Runs started at the same moment with the same root and target each get a directory of
// their own: the name is claimed by mkdir, not checked and then created.
TEST(RunDirectory, RunsStartedAtOnceGetDistinctDirectories) {
  Scratch scratch;
  constexpr int kRuns = 8;
  std::vector<fs::path> made(kRuns);
  std::vector<std::string> errors(kRuns);
  {
    std::latch start(kRuns);
    std::vector<std::jthread> runs;
    for (int i = 0; i < kRuns; ++i) {
      runs.emplace_back([&, i] {
        start.arrive_and_wait();
        try {
          made[i] = make_run_path(scratch.path, "20261201T020000Z", "reference");
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    }
  }
  for (const auto& error : errors) EXPECT_EQ(error, "");
  std::ranges::sort(made);
  EXPECT_EQ(std::ranges::adjacent_find(made), made.end()) << "two runs share a directory";
  EXPECT_EQ(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()), kRuns);
}

// A runs root that cannot be made is refused with its path and the reason.
TEST(RunDirectory, AnUnusableRootIsNamed) {
  Scratch scratch;
  fs::create_directories(scratch.path);
  { std::ofstream(scratch.path / "file") << "x"; }
  try {
    make_run_path(scratch.path / "file", "20261201T020000Z", "reference");
    FAIL() << "a file as the runs root was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr((scratch.path / "file").string()));
  }
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
