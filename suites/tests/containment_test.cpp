// Containment: `kill -9` of loiter mid-scenario leaves none of the server's processes alive
// (nginx's master and worker, a shell-wrapped server, a server that detaches a daemon), and a
// normal run against the detaching server names the daemon in a leftover-process finding.
// The processes are found by loiter's PID, from /proc, before the kill; never by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "loiter/testing/wait.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::Child;
using testing::read_text;
using testing::TempDir;

// State and parent of `pid` from /proc; nullopt once it is gone.
std::optional<std::pair<char, pid_t>> state_and_parent(pid_t pid) {
  std::ifstream in(fs::path("/proc") / std::to_string(pid) / "stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  char state = '?';
  pid_t parent = 0;
  std::istringstream(text.substr(close + 2)) >> state >> parent;
  return std::pair(state, parent);
}

bool alive(pid_t pid) {
  const auto seen = state_and_parent(pid);
  return seen && seen->first != 'Z' && seen->first != 'X';
}

// Every process below `root`, as /proc shows it now.
std::vector<pid_t> descendants(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const auto name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = std::stoi(name);
    if (const auto seen = state_and_parent(pid)) children.emplace(seen->second, pid);
  }
  std::vector<pid_t> found{root};
  for (std::size_t i = 0; i < found.size(); ++i) {
    const auto [first, last] = children.equal_range(found[i]);
    for (auto it = first; it != last; ++it) found.push_back(it->second);
  }
  found.erase(found.begin());
  return found;
}

// The processes a test recorded: SIGKILLed by PID when the test ends, whatever happened.
struct Recorded {
  std::vector<pid_t> pids;
  ~Recorded() {
    for (const pid_t pid : pids) {
      if (alive(pid)) ::kill(pid, SIGKILL);
    }
  }
};

// Waits until loiter has at least `count` live processes below it (its container's init and
// the server's), at most `timeout`; returns them.
std::vector<pid_t> wait_for_processes(pid_t loiter, std::size_t count,
                                      std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  std::vector<pid_t> found;
  while (std::chrono::steady_clock::now() < give_up) {
    found = descendants(loiter);
    std::erase_if(found, [](pid_t pid) { return !alive(pid); });
    if (found.size() >= count) return found;
    std::this_thread::sleep_for(10ms);  // polling /proc: no event tells a fork to another
  }
  return found;
}

// The PIDs still alive after at most `timeout`.
std::vector<pid_t> survivors(const std::vector<pid_t>& pids, std::chrono::milliseconds timeout) {
  std::vector<pid_t> left = pids;
  (void)loiter::testing::wait_for(  // polling /proc for the kernel's kill to land
      [&] {
        std::erase_if(left, [](pid_t pid) { return !alive(pid); });
        return left.empty();
      },
      "no survivors", timeout, 10ms);
  return left;
}

// The reference server with 1 s deadlines, started by `wrapper` ({server}: its command).
fs::path write_target(const fs::path& dir, const std::string& name, const std::string& shell) {
  const auto path = dir / (name + ".toml");
  std::ofstream(path) << "name = \"" << name << "\"\n"
                      << "command = [\"/bin/sh\", \"-c\", \"" << shell << "\"]\n"
                      << "[deadlines]\nheader = 1\nbody = 1\nidle = 1\n";
  return path;
}

constexpr char kServer[] =
    "{reference_server} --host {host} --port {port} --threads 1 --header-timeout 1 "
    "--body-timeout 1 --idle-timeout 1";

// A shell that runs the server as its child (not exec'd).
std::string shell_wrapped() { return std::string(kServer) + "; exit 0"; }
// A shell that detaches the server (setsid -f: a new session, its parent gone), then waits.
std::string detaching() { return std::string("setsid -f ") + kServer + "; exec sleep 60"; }

// Starts loiter against `target`, waits until it and `count` processes of the server run,
// kills loiter with SIGKILL and expects every one of them gone within seconds.
void kill_loiter_mid_scenario(const std::string& target, std::size_t count) {
  TempDir tmp;
  Child loiter({LOITER_BINARY, "check", "--target", target, "--scenario", "silent", "--count", "50",
                "--runs", (tmp.path() / "runs").string()},
               tmp.path() / "out");
  Recorded recorded;
  recorded.pids = wait_for_processes(loiter.pid(), count, 20s);
  ASSERT_GE(recorded.pids.size(), count) << read_text(tmp.path() / "out");
  loiter.signal(SIGKILL);
  EXPECT_EQ(loiter.wait(10), -SIGKILL);
  EXPECT_THAT(survivors(recorded.pids, 5s), ::testing::IsEmpty())
      << "processes of the server outlived loiter's kill -9";
}

// nginx's master and worker die with loiter's container (the init, the master, a worker).
TEST(Containment, KillNineOfLoiterLeavesNoNginxProcess) {
  if (::access("/usr/sbin/nginx", X_OK) != 0) GTEST_SKIP() << "nginx is not installed";
  kill_loiter_mid_scenario("nginx", 3);
}

// A server run as a child of /bin/sh dies with loiter (the init, the shell, the server).
TEST(Containment, KillNineOfLoiterLeavesNoShellWrappedServer) {
  TempDir tmp;
  kill_loiter_mid_scenario(write_target(tmp.path(), "wrapped", shell_wrapped()).string(), 3);
}

// A daemon detached with setsid dies with loiter (the init, the shell's sleep, the daemon).
TEST(Containment, KillNineOfLoiterLeavesNoDetachedDaemon) {
  TempDir tmp;
  kill_loiter_mid_scenario(write_target(tmp.path(), "detaching", detaching()).string(), 3);
}

// A normal run against a server that detaches a daemon names it (PID, command) in a
// leftover-process finding, and the daemon is gone after the run.
TEST(Containment, ANormalRunNamesTheDetachedDaemonInAFinding) {
  TempDir tmp;
  const auto target = write_target(tmp.path(), "detaching", detaching());
  const auto json = tmp.path() / "report.json";
  EXPECT_EQ(testing::run({LOITER_BINARY, "check", "--target", target.string(), "--scenario",
                          "silent", "--count", "20", "--runs", (tmp.path() / "runs").string(),
                          "--json", json.string()},
                         tmp.path() / "out", 60),
            1)
      << read_text(tmp.path() / "out");
  const auto report = read_text(json);
  EXPECT_THAT(report, ::testing::HasSubstr("\"leftover-process\""));
  const auto key = report.find("\"processes\"");
  ASSERT_NE(key, std::string::npos) << report;
  const auto at = report.find('"', report.find('[', key)) + 1;  // the first "PID command"
  const auto named = report.substr(at, report.find('"', at) - at);
  EXPECT_THAT(named, ::testing::HasSubstr("loiter-reference-server --host"));
  const pid_t daemon = std::stoi(named);
  Recorded recorded{.pids = {daemon}};
  EXPECT_THAT(survivors(recorded.pids, 1s), ::testing::IsEmpty());
  EXPECT_THAT(read_text(tmp.path() / "out"),
              ::testing::HasSubstr("still ran after it was stopped, and were killed"));
}

}  // namespace
}  // namespace loiter::suites
