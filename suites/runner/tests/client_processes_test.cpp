// Client processes are owned: their lines arrive, a failure is named by how it ended, and
// none outlives its owner (a stuck one is killed and reaped, within a bound).
#include "client_processes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/suites/runner/quiet_threads.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

int say(int fd, const std::string& text) {
  return ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) ? 0 : 9;
}

bool gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

// A thread that does nothing until asked to stop.
std::jthread idle_thread() {
  return std::jthread([](const std::stop_token& stop) {
    std::mutex mutex;
    std::condition_variable_any never_notified;
    std::unique_lock lock(mutex);
    never_notified.wait(lock, stop, [] { return false; });
  });
}

TEST(ClientProcesses, LinesArriveAndAFailedProcessIsNamedByItsStatus) {
  ClientProcesses processes;
  processes.start([](int fd) { return say(fd, "a\nb") + say(fd, "c\n"); });
  processes.start([](int fd) { return say(fd, "x\n") + 3; });
  std::vector<std::string> lines;
  const auto pumped = processes.pump(
      [&](std::size_t p, std::string_view line) {
        lines.push_back(std::to_string(p) + std::string(line));
      },
      [] {}, [] { return false; }, Clock::now() + 10s);
  EXPECT_EQ(pumped, ClientProcesses::Pumped::ended);
  std::ranges::sort(lines);
  EXPECT_THAT(lines, ElementsAre("0a", "0bc", "1x"));
  EXPECT_THAT(processes.reap(5s), ElementsAre("", "exited with status 3"));
}

TEST(ClientProcesses, AStuckProcessIsKilledAndReapedWhenItsOwnerGoes) {
  pid_t pid = -1;
  {
    ClientProcesses processes;
    processes.start([](int) {
      for (int i = 0; i < 600; ++i) ::sleep(1);  // bounded: 10 minutes
      return 0;
    });
    pid = processes.pid(0);
    const auto pumped = processes.pump([](std::size_t, std::string_view) {}, [] {},
                                       [] { return false; }, Clock::now() + 200ms);
    EXPECT_EQ(pumped, ClientProcesses::Pumped::timed_out);
  }
  EXPECT_TRUE(gone(pid)) << "client process " << pid << " outlived its owner";
}

TEST(ClientProcesses, StopEndsThemBySigterm) {
  ClientProcesses processes;
  processes.start([](int) {
    for (int i = 0; i < 600; ++i) ::sleep(1);
    return 0;
  });
  processes.stop(2s);
  EXPECT_THAT(processes.reap(1s), ElementsAre("was killed by signal 15"));
  EXPECT_TRUE(gone(processes.pid(0)));
}

// reap() waits on each process's exit for at most its bound, then kills what is still there.
TEST(ClientProcesses, ReapKillsAProcessStillThereAfterItsBound) {
  ClientProcesses processes;
  processes.start([](int) {
    for (int i = 0; i < 600; ++i) ::sleep(1);  // bounded: 10 minutes
    return 0;
  });
  const auto start = Clock::now();
  EXPECT_THAT(processes.reap(300ms), ElementsAre("was killed by signal 9"));
  const auto took = Clock::now() - start;
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 5s);
  EXPECT_TRUE(gone(processes.pid(0)));
}

// A fork copies only its caller: while another thread runs, start() refuses with a harness
// error naming the threads and starts nothing; once that thread is joined, it forks.
TEST(ClientProcesses, StartRefusesWhileAnotherThreadRuns) {
  ClientProcesses processes;
  auto other = idle_thread();
  try {
    processes.start([](int) { return 0; });
    FAIL() << "a client process was forked while another thread ran";
  } catch (const fixtures::HarnessError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot fork client process 1: loiter runs 2 threads"));
  }
  EXPECT_EQ(processes.size(), 0u);
  other = {};  // stops and joins it
  processes.start([](int) { return 0; });
  EXPECT_THAT(processes.reap(5s), ElementsAre(""));
}

// A thread registered to step aside is stopped for the forks and runs again after them.
TEST(ClientProcesses, ARegisteredThreadStepsAsideForTheForks) {
  std::jthread ticker = idle_thread();
  int stops = 0;
  int restarts = 0;
  const QuietForForks quiet(
      [&] {
        ticker = {};
        ++stops;
      },
      [&] {
        ticker = idle_thread();
        ++restarts;
      });
  ClientProcesses processes;
  with_threads_stopped([&] {
    processes.start([](int) { return 0; });
    processes.start([](int) { return 0; });
  });
  EXPECT_EQ(stops, 1);
  EXPECT_EQ(restarts, 1);
  EXPECT_TRUE(ticker.joinable());
  EXPECT_THAT(processes.reap(5s), ElementsAre("", ""));
}

}  // namespace
}  // namespace loiter::suites
