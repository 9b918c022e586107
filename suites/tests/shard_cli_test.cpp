// Shards end to end against the reference server (1 s deadlines), the server watched by
// `loiter observe --pid`: one plan run as 1 and as 2 shards (each on its own 127.x source
// addresses) merges into the same verdict and counts under the same plan hash; a shard
// killed mid-run makes the merge "incomplete" (exit 3), never a pass; and what cannot be a
// shared run is refused before anything starts.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <filesystem>
#include <utility>
#include <vector>

#include "cli_run.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

// A whole second `lead` or more from now: every shard's --start-at.
WallClock::time_point start_in(std::chrono::seconds lead) {
  return std::chrono::ceil<std::chrono::seconds>(WallClock::now()) + lead;
}

std::vector<std::string> shard_argv(const fixtures::ServerUnderTest& sut, std::size_t k,
                                    std::size_t count, WallClock::time_point start,
                                    const fs::path& runs, std::string_view scenario,
                                    std::size_t connections) {
  std::vector<std::string> argv{LOITER_BINARY, "check",
                                "--scenario",  std::string(scenario),
                                "--count",     std::to_string(connections),
                                "--connect",   fmt::format("{}:{}", sut.host(), sut.port()),
                                "--shard",     fmt::format("{}/{}", k, count),
                                "--start-at",  format_utc(start),
                                "--runs",      runs.string()};
  argv.insert(argv.end(), kShortDeadlines.begin(), kShortDeadlines.end());
  return argv;
}

// Runs K shards of `silent` to their end; each must exit 0.
void run_shards(const fixtures::ServerUnderTest& sut, std::size_t count,
                WallClock::time_point start, const fs::path& runs, const fs::path& out) {
  std::vector<std::unique_ptr<Child>> shards;
  for (std::size_t k = 0; k < count; ++k) {
    shards.push_back(std::make_unique<Child>(shard_argv(sut, k, count, start, runs, "silent", 40),
                                             out / fmt::format("shard-{}-of-{}", k, count)));
  }
  for (std::size_t k = 0; k < count; ++k) {
    EXPECT_EQ(shards[k]->wait(60), 0) << read_text(out / fmt::format("shard-{}-of-{}", k, count));
  }
}

std::vector<std::string> shard_dirs(const fs::path& runs, WallClock::time_point start,
                                    std::size_t count) {
  std::vector<std::string> dirs;
  for (std::size_t k = 0; k < count; ++k) {
    dirs.push_back((runs / shard_directory_name(start, "reference", k, count)).string());
  }
  return dirs;
}

int merge(const std::vector<std::string>& dirs, const fs::path& observe, const fs::path& runs,
          const fs::path& output) {
  std::vector<std::string> argv{LOITER_BINARY, "merge"};
  argv.insert(argv.end(), dirs.begin(), dirs.end());
  for (const auto& s : {"--observe", observe.c_str(), "--runs", runs.c_str()}) argv.push_back(s);
  return run(argv, output);
}

// The merged run's verdict and how many connection records it holds.
std::pair<std::string, std::size_t> merged_run(const fs::path& runs) {
  const auto dir = only_run_directory(runs);
  const auto shards = boost::json::parse(read_text(dir / "shards.json"));
  EXPECT_EQ(shards.at("shards").as_array().size(),
            shards.at("shards").at(0).at("shards").as_int64());
  const auto report = boost::json::parse(read_text(dir / "report.json"));
  const auto& scenario = report.at("scenarios").at(0);
  return {
      std::string(scenario.at("status").as_string()),
      static_cast<std::size_t>(std::ranges::count(read_text(dir / "records/silent.jsonl"), '\n'))};
}

// One plan, run as 1 shard and then as 2 (each shard on its own source addresses), merged
// with the server's side: the same verdict (pass), the same counts, one plan hash.
TEST(ShardCli, OneAndTwoShardsMergeIntoTheSameVerdictAndCounts) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(fixtures::reference_target({.header = 1s, .body = 1s, .idle = 1s}));
  // Each run's clients end about 2 s after its start (patience: twice the 1 s deadline), and
  // its FDs are back at once: the merge needs the watch only until they have stayed back
  // (0.3 s), which 5 s after each start covers with room for a late process start.
  const auto one = start_in(3s);
  const auto two = one + 5s;  // after the first run's clients and its recovery
  const auto watch_for =
      std::chrono::duration_cast<std::chrono::seconds>(two + 5s - WallClock::now());
  Child observe({LOITER_BINARY, "observe", "--pid", std::to_string(sut.pid()), "--port",
                 std::to_string(sut.port()), "--out", (tmp.path() / "server").string(),
                 "--duration", std::to_string(watch_for.count()), "--period-ms", "50"},
                tmp.path() / "observe.out");
  run_shards(sut, 1, one, tmp.path() / "shards", tmp.path());
  run_shards(sut, 2, two, tmp.path() / "shards", tmp.path());
  EXPECT_EQ(observe.wait(static_cast<double>(watch_for.count()) + 30), 0)
      << read_text(tmp.path() / "observe.out");
  std::pair<std::string, std::size_t> verdict[2];
  std::string hash[2];
  for (const std::size_t count : {1u, 2u}) {
    const auto start = count == 1 ? one : two;
    const auto dirs = shard_dirs(tmp.path() / "shards", start, count);
    const auto runs = tmp.path() / fmt::format("merged-{}", count);
    const auto out = tmp.path() / fmt::format("merge-{}.out", count);
    EXPECT_EQ(merge(dirs, tmp.path() / "server", runs, out), 0) << read_text(out);
    EXPECT_THAT(read_text(out), HasSubstr("PASS  silent"));
    verdict[count - 1] = merged_run(runs);
    hash[count - 1] = read_shard_header(dirs[0]).plan_hash;
    // One shard connects from 127.0.0.2; shard k of 2 from its own block, 127.<k+1>.0.2.
    const auto records = read_text(only_run_directory(runs) / "records/silent.jsonl");
    for (const auto* source :
         count == 1 ? std::vector{"\"127.0.0.2:"} : std::vector{"\"127.1.0.2:", "\"127.2.0.2:"}) {
      EXPECT_THAT(records, HasSubstr(source));
    }
  }
  EXPECT_EQ(hash[0], hash[1]) << "K is beside the plan, not in it";
  EXPECT_EQ(verdict[0], (std::pair<std::string, std::size_t>{"pass", 40}));
  EXPECT_EQ(verdict[1], verdict[0]);
}

// The merged run is judged, and can fail: shards of `silent` against a reference server
// with its header deadline switched off (it never closes a silent connection) merge into a
// FAIL (exit 1) that names the connections still open.
TEST(ShardCli, ShardsAgainstAServerWithoutItsDeadlineMergeIntoAFail) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(fixtures::reference_target(
      {.header = 1s, .body = 1s, .idle = 1s, .faults = {"no-header-deadline"}}));
  // The FDs of connections never closed do not come back: the watch must cover the whole
  // recovery window (5 s from the clients' end, about 2 s after the start), or the merge
  // says the FDs were not watched to the end.
  const auto start = start_in(3s);
  const auto watch_for =
      std::chrono::duration_cast<std::chrono::seconds>(start + 10s - WallClock::now());
  Child observe({LOITER_BINARY, "observe", "--pid", std::to_string(sut.pid()), "--port",
                 std::to_string(sut.port()), "--out", (tmp.path() / "server").string(),
                 "--duration", std::to_string(watch_for.count()), "--period-ms", "50"},
                tmp.path() / "observe.out");
  run_shards(sut, 2, start, tmp.path() / "shards", tmp.path());
  EXPECT_EQ(observe.wait(static_cast<double>(watch_for.count()) + 30), 0)
      << read_text(tmp.path() / "observe.out");
  const auto out = tmp.path() / "merge.out";
  EXPECT_EQ(merge(shard_dirs(tmp.path() / "shards", start, 2), tmp.path() / "server",
                  tmp.path() / "merged", out),
            1)
      << read_text(out);
  EXPECT_THAT(read_text(out), HasSubstr("FAIL  silent"));
  EXPECT_THAT(read_text(out), HasSubstr("still open"));
}

// A shard killed mid-run (SIGKILL: it writes nothing more) leaves its status "running": the
// merge says incomplete and exits 3, whatever the other shard did.
TEST(ShardCli, AKilledShardMakesTheMergeIncomplete) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(fixtures::reference_target({.header = 1s, .body = 1s, .idle = 1s}));
  const auto start = start_in(2s);
  const auto runs = tmp.path() / "shards";
  Child kept(shard_argv(sut, 0, 2, start, runs, "silent", 40), tmp.path() / "kept.out");
  Child killed(shard_argv(sut, 1, 2, start, runs, "silent", 40), tmp.path() / "killed.out");
  const auto dirs = shard_dirs(runs, start, 2);
  ASSERT_TRUE(output_shows(fs::path(dirs[1]) / "shard.json", "\"status\":\"running\"", 10s))
      << read_text(tmp.path() / "killed.out");
  killed.signal(SIGKILL);
  EXPECT_EQ(killed.wait(10), -SIGKILL);
  EXPECT_EQ(kept.wait(60), 0) << read_text(tmp.path() / "kept.out");
  const auto out = tmp.path() / "merge.out";
  EXPECT_EQ(merge(dirs, tmp.path() / "no-observer", tmp.path() / "merged", out), 3)
      << read_text(out);
  EXPECT_THAT(read_text(out), HasSubstr("INCOMPLETE"));
  EXPECT_THAT(read_text(out), HasSubstr("shard 1 of 2 did not finish"));
  EXPECT_EQ(merge({dirs[0]}, tmp.path() / "no-observer", tmp.path() / "merged", out), 3);
  EXPECT_THAT(read_text(out), HasSubstr("shard 1 of 2 is missing"));
  EXPECT_FALSE(fs::exists(tmp.path() / "merged")) << "an incomplete run leaves no verdict";
}

// What cannot be one share of a shared run is refused (exit 2) before anything starts: a
// shard index out of range, no start, a target off loopback without --allow-remote, two
// scenarios, a share that already ran.
TEST(ShardCli, RefusesWhatCannotBeAShareOfARun) {
  TempDir tmp;
  const auto start = format_utc(start_in(60s));
  const std::vector<std::string> base{LOITER_BINARY, "check", "--runs", (tmp.path() / "r").string(),
                                      "--scenario",  "silent"};
  const auto refused = [&](std::vector<std::string> extra, std::string_view says) {
    auto argv = base;
    argv.insert(argv.end(), extra.begin(), extra.end());
    if (std::ranges::find(extra, "--start-at") == extra.end()) {
      argv.insert(argv.end(), {"--start-at", start});
    }
    const auto out = tmp.path() / "out";
    EXPECT_EQ(run(argv, out, 20), 2) << read_text(out);
    EXPECT_THAT(read_text(out), HasSubstr(says));
  };
  refused({"--shard", "2/2", "--connect", "127.0.0.1:9"}, "0 <= k < K");
  refused({"--shard", "0/2"}, "needs --connect");
  refused({"--shard", "0/2", "--connect", "192.0.2.1:80"}, "--allow-remote");
  refused({"--shard", "0/2", "--connect", "127.0.0.1:9", "--scenario", "rst-abort"},
          "one scenario");
  refused({"--shard", "0/2", "--connect", "127.0.0.1:9", "--start-at", "now"}, "RFC 3339");
  refused({"--shard", "0/2", "--connect", "127.0.0.1:9", "--start-at", "2099-01-01T00:00:00Z"},
          "more than a day ahead");
  refused({"--shard", "0/2", "--connect", "127.0.0.1:9", "--fault", "no-header-deadline"},
          "--fault");
  const auto dir = tmp.path() / "r" / shard_directory_name(parse_utc(start), "reference", 0, 2);
  fs::create_directories(dir);
  refused({"--shard", "0/2", "--connect", "127.0.0.1:9"}, "never runs twice");
}

}  // namespace
}  // namespace loiter::suites
