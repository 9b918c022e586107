// The harness's own findings, each from a real run of a set-up broken on purpose, and kept as
// the example of its words (LOITER_FINDING_EXAMPLES, scripts/finding-examples): no meta row
// makes them, for they say what is wrong with the set-up, not with the server. Each test
// asserts its code, so a check that stopped firing fails here. Seconds each, against the
// reference server. driven-count has none: every fleet is sized to the count the scenario
// expects before any client runs, and what drives fewer (a client process lost, a shard
// short of records, an RLIMIT_NOFILE too low) is refused as a harness error or an
// incomplete merge before any judging: no set-up makes it, only a scenario whose drive and
// expectations disagree.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
namespace codes = reports::codes;
using namespace std::chrono_literals;
using reports::Finding;
using testing::Child;
using ::testing::Contains;
using ::testing::Field;
using testing::findings_of;
using ::testing::HasSubstr;
using testing::read_text;
using testing::TempDir;

// The PID a process wrote to `file`, if it wrote one.
pid_t pid_in(const fs::path& file) {
  pid_t pid = 0;
  std::ifstream(file) >> pid;
  return pid;
}

// The daemon the leaving target starts, SIGKILLed by its PID when the test ends, however it
// ends, should loiter have left it running: only while /proc still shows it as that daemon,
// so a PID used again by then is left alone.
struct KillDaemonAtEnd {
  fs::path pid_file;
  ~KillDaemonAtEnd() {
    const pid_t pid = pid_in(pid_file);
    if (pid <= 0) return;
    try {  // a process that ends mid-read fails the read with ESRCH, which libstdc++ throws
      auto cmdline = read_text(fs::path("/proc") / std::to_string(pid) / "cmdline");
      std::ranges::replace(cmdline, '\0', ' ');
      if (cmdline == "sleep 20 ") ::kill(pid, SIGKILL);
    } catch (const std::exception&) {
    }
  }
};

// A server that leaves a child behind: its command starts a daemon in a session of its own
// (setsid -f: out of the process group that loiter's SIGTERM reaches) before it execs the
// reference server. The daemon writes its PID as /proc shows it to this test (read from
// /proc/self/stat, which reads the same in a PID namespace without a /proc of its own) and
// becomes `sleep 20`, bounded by itself should everything else fail.
fs::path leaving_target(const fs::path& dir, const fs::path& pid_file) {
  const auto path = dir / "leaves-a-child.toml";
  std::ofstream(path)
      << "name = \"leaves-a-child\"\n"
      << "command = [\"/bin/sh\", \"-c\", \"setsid -f /bin/sh -c 'read -r pid rest < "
         "/proc/self/stat; echo $pid > "
      << pid_file.string()
      << "; exec sleep 20'; exec {reference_server} --host {host} --port {port} --threads 1 "
         "--header-timeout 1 --body-timeout 1 --idle-timeout 1\"]\n"
      << "[deadlines]\nheader = 1\nbody = 1\nidle = 1\n";
  return path;
}

// The daemon still runs when the server is stopped: loiter names it (its PID and command) in
// a leftover-process finding, and kills it.
TEST(BrokenSetup, AChildLeftRunningIsALeftoverProcess) {
  TempDir tmp;
  KillDaemonAtEnd daemon{.pid_file = tmp.path() / "daemon.pid"};
  const auto target = fixtures::load_target_file(leaving_target(tmp.path(), daemon.pid_file));
  const auto result =
      run_scenario(*find_scenario("silent"), target, testing::meta_timing(), {.count = 5});
  testing::keep_examples(result, "", "a target whose command leaves a child running");
  const auto& findings = result.verdict.findings;
  const auto leftover = std::ranges::find(findings, codes::kLeftoverProcess, &Finding::code);
  ASSERT_NE(leftover, findings.end()) << findings_of(result);
  const pid_t pid = pid_in(daemon.pid_file);
  ASSERT_GT(pid, 0) << "the daemon wrote no PID";
  EXPECT_THAT(leftover->processes, Contains(std::to_string(pid) + " sleep 20"))
      << findings_of(result);
}

// A server command that is not installed: loiter cannot start it, and the scenario is an
// error with a harness-error finding saying so (exit 3).
TEST(BrokenSetup, AServerNotInstalledIsAHarnessError) {
  TempDir tmp;
  const fs::path missing = "/nonexistent/http-server";
  ASSERT_FALSE(fs::exists(missing));
  const auto target = tmp.path() / "not-installed.toml";
  std::ofstream(target) << "name = \"not-installed\"\ncommand = [\"" << missing.string()
                        << "\", \"--port\", \"{port}\"]\n[deadlines]\nheader = 1\n";
  const auto json = tmp.path() / "report.json";
  EXPECT_EQ(testing::loiter(tmp, {"check", "--target", target.string(), "--scenario", "silent",
                                  "--count", "5", "--json", json.string()}),
            3)
      << read_text(tmp.path() / "out");
  const auto report = read_text(json);
  ASSERT_FALSE(report.empty()) << read_text(tmp.path() / "out");
  testing::keep_report_examples(report, "a target whose server is not installed");
  const auto document = boost::json::parse(report);
  const auto& scenario = document.at("scenarios").at(0);
  EXPECT_EQ(scenario.at("status").as_string(), "error");
  const auto& finding = scenario.at("findings").at(0);
  EXPECT_EQ(finding.at("code").as_string(), codes::kHarnessError);
  EXPECT_THAT(std::string(finding.at("text").as_string()),
              HasSubstr("cannot start " + missing.string()));
}

// idle-under-load with a schedule of no request (0.5 a second for 1 s: none is due): the
// load generator dispatches nothing, and the run says so rather than judge traffic that never
// ran.
TEST(BrokenSetup, ALoadScheduleOfNoRequestDispatchesNone) {
  const ScenarioParameters none_due{
      .count = 3, .load_rate = 0.5, .load_duration = 1s, .load_connections = 1};
  const auto result =
      run_scenario(*find_scenario("idle-under-load"), testing::self_test_reference(),
                   testing::meta_timing(), none_due);
  testing::keep_examples(
      result, "", "the reference server, at 0.5 regular requests a second for 1 s (none due)");
  ASSERT_TRUE(result.observation.load) << findings_of(result);
  EXPECT_EQ(result.observation.load->result.dispatched, 0u);
  EXPECT_THAT(result.verdict.findings, Contains(Field(&Finding::code, codes::kNoLoadDispatched)))
      << findings_of(result);
}

// A run of idle-under-load as one shard (--shard 0/1) against a reference server that
// `loiter observe` watches, its directory copied without load.json (what an upload of the
// records alone keeps), then merged: the regular traffic that ran is not there, and the
// merged run says so rather than judge a load scenario without it.
TEST(BrokenSetup, AShardMergedWithoutItsLoadJsonRanNoLoad) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(fixtures::reference_target({.header = 1s, .body = 1s, .idle = 1s}));
  // The clients end about 2 s after the start (the waiting connections closed at the 1 s
  // deadlines, after 1 s of load), their FDs back at once: watched for 5 s after the start.
  const auto start = std::chrono::ceil<std::chrono::seconds>(WallClock::now()) + 2s;
  const auto watch_for =
      std::chrono::duration_cast<std::chrono::seconds>(start + 5s - WallClock::now());
  Child observe({LOITER_BINARY, "observe", "--pid", std::to_string(sut.pid()), "--port",
                 std::to_string(sut.port()), "--out", (tmp.path() / "server").string(),
                 "--duration", std::to_string(watch_for.count()), "--period-ms", "50"},
                tmp.path() / "observe.out");
  const auto server = fmt::format("{}:{}", sut.host(), sut.port());
  const auto at = format_utc(start);
  const auto shards = (tmp.path() / "shards").string();
  std::vector<std::string> shard{LOITER_BINARY, "check", "--scenario", "idle-under-load",
                                 "--connect",   server,  "--shard",    "0/1",
                                 "--start-at",  at,      "--runs",     shards};
  // 3 waiting connections beside 100 requests a second for 1 s on 2 connections.
  for (const auto* option :
       {"--count", "3", "--load-rate", "100", "--load-duration", "1", "--load-connections", "2"}) {
    shard.push_back(option);
  }
  shard.insert(shard.end(), testing::kShortDeadlines.begin(), testing::kShortDeadlines.end());
  ASSERT_EQ(testing::run(shard, tmp.path() / "shard.out", 60), 0)
      << read_text(tmp.path() / "shard.out");
  ASSERT_EQ(observe.wait(static_cast<double>(watch_for.count()) + 30), 0)
      << read_text(tmp.path() / "observe.out");
  const auto ran = fs::path(shards) / shard_directory_name(start, "reference", 0, 1);
  ASSERT_TRUE(fs::exists(ran / "load.json")) << "the shard wrote no load.json";
  const auto copied = tmp.path() / "copied";
  fs::create_directory(copied);
  for (const auto& entry : fs::directory_iterator(ran)) {
    if (entry.path().filename() != "load.json")
      fs::copy(entry.path(), copied / entry.path().filename());
  }
  const auto json = tmp.path() / "report.json";
  EXPECT_EQ(testing::run({LOITER_BINARY, "merge", copied.string(), "--observe",
                          (tmp.path() / "server").string(), "--runs",
                          (tmp.path() / "merged").string(), "--json", json.string()},
                         tmp.path() / "merge.out", 60),
            1)
      << read_text(tmp.path() / "merge.out");
  const auto report = read_text(json);
  ASSERT_FALSE(report.empty()) << read_text(tmp.path() / "merge.out");
  testing::keep_report_examples(report, "the reference server, a shard merged without load.json");
  const auto document = boost::json::parse(report);
  const auto& scenario = document.at("scenarios").at(0);
  EXPECT_EQ(scenario.at("id").as_string(), "idle-under-load");
  EXPECT_THAT(
      scenario.at("findings").as_array(),
      Contains(::testing::ResultOf(
          [](const boost::json::value& f) { return f.at("code").as_string(); }, codes::kNoLoad)))
      << read_text(tmp.path() / "merge.out");
}

}  // namespace
}  // namespace loiter::suites
