// Client processes are owned: their lines arrive, a failure is named by how it ended, and
// none outlives its owner (a stuck one is killed and reaped, within a bound).
#include "client_processes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using ::testing::ElementsAre;

int say(int fd, const std::string& text) {
  return ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) ? 0 : 9;
}

bool gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

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

}  // namespace
}  // namespace loiter::suites
