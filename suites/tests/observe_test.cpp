// `loiter observe` end to end against the reference server: a target it starts is watched
// for the duration and stopped, a server it was given by PID is watched until Ctrl-C (exit
// 130, every line whole) or until that server exits, and bad inputs are refused (exit 2)
// before anything starts. Each test leaves no server behind.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "cli_run.hpp"
#include "loiter/fixtures/os/process.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/testing/wait.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

int observe(const TempDir& tmp, std::vector<std::string> args) {
  std::vector<std::string> argv{LOITER_BINARY, "observe"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, tmp.path() / "out", 60);
}

// Waits until `path` holds at least `lines` whole lines, at most `timeout`.
bool has_lines(const fs::path& path, std::size_t lines, std::chrono::milliseconds timeout) {
  return loiter::testing::wait_for(  // polling a file
      [&] { return static_cast<std::size_t>(std::ranges::count(read_text(path), '\n')) >= lines; },
      "lines", timeout, 20ms);
}

// --target starts the server, prints its address and PID, samples it every 50 ms for 2 s
// (about 40 samples, each with its FDs and TCP states), ends by the duration and stops it.
TEST(Observe, ATargetIsWatchedForTheDurationAndStopped) {
  TempDir tmp;
  const auto dir = tmp.path() / "watch";
  EXPECT_EQ(observe(tmp, {"--target", "reference", "--out", dir.string(), "--duration", "2",
                          "--period-ms", "50"}),
            0)
      << read_text(tmp.path() / "out");
  const auto out = read_text(tmp.path() / "out");
  std::smatch line;
  ASSERT_TRUE(std::regex_search(
      out, line,
      std::regex(R"(observing reference at 127\.0\.0\.1:(\d+) \(pid (\d+)\) for 2 s: )")))
      << out;
  EXPECT_THAT(out, HasSubstr("ended by duration"));
  const auto watch = read_server_watch(dir);
  EXPECT_EQ(watch.ended_by, WatchEnding::duration);
  EXPECT_EQ(watch.target, "reference");
  EXPECT_EQ(watch.port, std::stoi(line[1]));
  EXPECT_EQ(watch.pid, std::stol(line[2]));
  EXPECT_FALSE(watch.torn_tail);
  // The schedule, not how often the sampler got a core: at most one sample in each of the 40
  // slots of 50 ms (a slot whose wake came late is skipped, so fewer on a busy machine), each
  // inside the watch and after the one before it.
  ASSERT_FALSE(watch.samples.empty());
  EXPECT_LE(watch.samples.size(), 40u);
  auto previous = watch.started;
  for (const auto& s : watch.samples) {
    EXPECT_GT(s.sample.fds, 0u);
    ASSERT_TRUE(s.sample.tcp.has_value()) << s.sample.tcp_problem;
    EXPECT_EQ(s.sample.tcp->listeners, 1u);
    EXPECT_GE(s.at, previous);
    EXPECT_LE(s.at, watch.ended);
    previous = s.at;
  }
  const auto span = watch.ended - watch.started;
  EXPECT_GE(span, 2s);
  EXPECT_LT(span, 4s);
  EXPECT_TRUE(fixtures::wait_for_exit(static_cast<pid_t>(watch.pid), 5'000ms))
      << "the server observe started is still running";
}

// Ctrl-C ends a --pid watch: exit 130, ended_by interrupt, every line whole; the server it
// was given keeps running.
TEST(Observe, CtrlCEndsAPidWatchWithEveryLineWhole) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(fixtures::reference_target());
  const auto dir = tmp.path() / "watch";
  Child watcher({LOITER_BINARY, "observe", "--pid", std::to_string(sut.pid()), "--port",
                 std::to_string(sut.port()), "--out", dir.string(), "--duration", "60",
                 "--period-ms", "20", "--fd-types"},
                tmp.path() / "out");
  ASSERT_TRUE(has_lines(dir / kWatchSamplesFile, 10, 10s)) << read_text(tmp.path() / "out");
  watcher.signal(SIGINT);
  EXPECT_EQ(watcher.wait(10), 130) << read_text(tmp.path() / "out");
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("ended by interrupt"));
  const auto watch = read_server_watch(dir);
  EXPECT_EQ(watch.ended_by, WatchEnding::interrupt);
  EXPECT_EQ(watch.pid, sut.pid());
  EXPECT_EQ(watch.target, std::nullopt);
  EXPECT_FALSE(watch.torn_tail);
  EXPECT_GE(watch.samples.size(), 10u);
  EXPECT_EQ(read_text(dir / kWatchSamplesFile).back(), '\n');
  for (const auto& s : watch.samples) {
    EXPECT_GT(s.sample.processes, 0u);
    EXPECT_TRUE(s.sample.fd_types.has_value());
    ASSERT_TRUE(s.sample.tcp.has_value()) << s.sample.tcp_problem;
  }
  EXPECT_EQ(sut.exit_description(), std::nullopt) << "observe --pid must not stop the server";
}

// A --pid watch ends when that server exits: exit 0, ended_by server-exited, the last
// sample showing it gone.
TEST(Observe, APidWatchEndsWhenTheServerExits) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(fixtures::reference_target());
  const auto dir = tmp.path() / "watch";
  Child watcher({LOITER_BINARY, "observe", "--pid", std::to_string(sut.pid()), "--out",
                 dir.string(), "--duration", "60", "--period-ms", "50"},
                tmp.path() / "out");
  ASSERT_TRUE(has_lines(dir / kWatchSamplesFile, 3, 10s)) << read_text(tmp.path() / "out");
  sut.stop();
  EXPECT_EQ(watcher.wait(10), 0) << read_text(tmp.path() / "out");
  const auto watch = read_server_watch(dir);
  EXPECT_EQ(watch.ended_by, WatchEnding::server_exited);
  ASSERT_FALSE(watch.samples.empty());
  EXPECT_EQ(watch.samples.back().sample.processes, 0u);
  EXPECT_FALSE(watch.samples.front().sample.tcp.has_value()) << "no --port: no TCP states";
}

// Refused with exit 2 and the problem named, before anything starts or is written.
TEST(Observe, BadInputsAreRefusedBeforeAnythingStarts) {
  TempDir tmp;
  const auto dir = (tmp.path() / "watch").string();
  fs::create_directories(tmp.path() / "used");
  std::ofstream(tmp.path() / "used/x") << "x";
  const auto self = std::to_string(::getpid());
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--out", dir, "--duration", "1"}, "name the server"},
      {{"--pid", self, "--target", "reference", "--out", dir, "--duration", "1"}, "excludes"},
      {{"--pid", "0", "--out", dir, "--duration", "1"}, "not a process id"},
      {{"--pid", "2147483647", "--out", dir, "--duration", "1"}, "no such process"},
      {{"--pid", self, "--out", (tmp.path() / "used").string(), "--duration", "1"}, "not empty"},
      {{"--pid", self, "--out", dir, "--duration", "0"}, "not a positive number"},
      {{"--pid", self, "--out", dir, "--duration", "604801"}, "beyond a week"},
      {{"--pid", self, "--out", dir}, "--duration is required"},
      {{"--pid", self, "--out", dir, "--duration", "1", "--period-ms", "5"}, "--period-ms"},
      {{"--target", "reference", "--port", "80", "--out", dir, "--duration", "1"},
       "--port goes with --pid"},
      {{"--target", "no-such-target", "--out", dir, "--duration", "1"}, "no-such-target"},
      {{"--pid", self, "--out", (tmp.path() / "used/x/watch").string(), "--duration", "1"},
       "cannot be made"}};
  for (const auto& [args, message] : cases) {
    EXPECT_EQ(observe(tmp, args), 2) << fmt::format("{}", fmt::join(args, " "));
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message))
        << fmt::format("{}", fmt::join(args, " "));
    EXPECT_FALSE(fs::exists(dir)) << "a refused watch wrote " << dir;
  }
}

}  // namespace
}  // namespace loiter::suites
