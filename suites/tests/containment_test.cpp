// Containment: `kill -9` of loiter mid-scenario leaves none of the server's processes alive
// (nginx's master and worker, a shell-wrapped server, a server that detaches a daemon), and a
// normal run against the detaching server names the daemon in a leftover-process finding;
// each under every containment: a PID namespace (loiter as root, as CI runs it), a user
// namespace (loiter without CAP_SYS_ADMIN: setpriv drops it from the bounding set, so
// clone(CLONE_NEWPID) fails as an unprivileged user's does; and loiter as nobody, run from a
// copy any user may execute), and a watchdog (LOITER_CONTAINMENT=watchdog: namespaces
// refused). The processes are found by loiter's PID,
// from /proc, before the kill; never by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "loiter/fixtures/os/temp_directory.hpp"
#include "loiter/testing/wait.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::Child;
using testing::read_text;
using testing::TempDir;

// /proc/`pid`/`name`; empty once the process is gone (one that exits mid-read fails the
// read with ESRCH, which libstdc++ throws).
std::string proc_file(pid_t pid, const char* name) {
  try {
    std::ifstream in(fs::path("/proc") / std::to_string(pid) / name);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  } catch (const std::exception&) {
    return {};
  }
}

// State and parent of `pid` from /proc; nullopt once it is gone.
std::optional<std::pair<char, pid_t>> state_and_parent(pid_t pid) {
  const std::string text = proc_file(pid, "stat");
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

// The command line of `pid`, its arguments joined by spaces and its program without its
// directory ("sh -c ..."); empty once it is gone.
std::string command_of(pid_t pid) {
  std::string text = proc_file(pid, "cmdline");
  const auto slash = text.rfind('/', text.find_first_of(std::string_view(" \0", 2)));
  if (slash != std::string::npos) text.erase(0, slash + 1);
  std::ranges::replace(text, '\0', ' ');
  return text;
}

// Waits, at most `timeout`, until processes below loiter run each of `commands` (how their
// command line starts: a shell about to exec a program is not that program yet): the server
// has started all the test kills loiter for. Returns every live process below loiter then
// (its container's keeper first), nothing if it did not.
std::vector<pid_t> wait_for_processes(pid_t loiter, const std::vector<std::string>& commands,
                                      std::chrono::milliseconds timeout) {
  std::vector<pid_t> found;
  const auto all_run = [&] {
    found = descendants(loiter);
    std::erase_if(found, [](pid_t pid) { return !alive(pid); });
    return std::ranges::all_of(commands, [&](const std::string& command) {
      return std::ranges::any_of(found,
                                 [&](pid_t pid) { return command_of(pid).starts_with(command); });
    });
  };
  // Polling /proc: no event tells a fork or an exec to another process.
  if (!loiter::testing::wait_for(all_run, "the server's processes", timeout, 10ms)) return {};
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

// The processes a test recorded, its container's keeper first. When the test ends, whatever
// happened, those still running after a few seconds (the keeper's own kill) are SIGKILLed by
// PID, each with every process below it (a test that failed early recorded only some).
// Declared before loiter's Child, so loiter dies first and a watchdog can do its work.
struct Recorded {
  std::vector<pid_t> pids;
  ~Recorded() {
    for (const pid_t pid : survivors(pids, 5s)) {
      for (const pid_t below : descendants(pid)) ::kill(below, SIGKILL);
      ::kill(pid, SIGKILL);
    }
  }
};

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

// The namespace `kind` ("pid", "user") of `pid`, as /proc names it: "pid:[4026531836]".
std::string name_space(pid_t pid, const char* kind) {
  std::error_code ignored;
  return fs::read_symlink(fs::path("/proc") / std::to_string(pid) / "ns" / kind, ignored);
}

// The containment of `keeper`, loiter's child, as /proc shows it: its own PID namespace in
// loiter's user namespace, or in one of its own, or neither (a watchdog).
std::string containment_seen(pid_t loiter, pid_t keeper) {
  if (name_space(keeper, "pid") == name_space(loiter, "pid")) return "watchdog";
  if (name_space(keeper, "user") == name_space(loiter, "user")) return "pid-namespace";
  return "user-namespace";
}

// How loiter runs for one containment.
struct Mode {
  std::string label;                // the test's name: "userNamespaceAsNobody"
  std::string containment;          // what provenance names: "user-namespace"
  std::vector<std::string> prefix;  // the command that execs loiter (same PID)
  int may = 0;                      // clone flags this containment needs of the test's host
  uid_t user = 0;                   // loiter's user (its files must be reachable for it)
};

std::string mode_name(const ::testing::TestParamInfo<Mode>& info) { return info.param.label; }

constexpr uid_t kNobody = 65534;

const Mode kModes[] = {
    {.label = "pidNamespace", .containment = "pid-namespace", .prefix = {}, .may = CLONE_NEWPID},
    {.label = "userNamespace",
     .containment = "user-namespace",
     .prefix = {"/usr/bin/setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin"},
     .may = CLONE_NEWUSER},
    {.label = "userNamespaceAsNobody",
     .containment = "user-namespace",
     .prefix = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"},
     .may = CLONE_NEWUSER,
     .user = kNobody},
    {.label = "watchdog",
     .containment = "watchdog",
     .prefix = {"/usr/bin/env", "LOITER_CONTAINMENT=watchdog"}},
};

// loiter and its reference server (found beside it) copied where any user may run them:
// a build tree under a private directory (CI's `mktemp -d`) is not reachable for nobody.
// The copy is made once and removed when the test process exits.
const std::string& reachable_loiter() {
  static const fixtures::TempDirectory dir("loiter-any-user-");
  static const std::string copy = [] {
    using fs::perms;
    fs::permissions(dir.path(), perms::owner_all | perms::group_read | perms::group_exec |
                                    perms::others_read | perms::others_exec);
    const fs::path loiter = LOITER_BINARY;
    for (const auto* name : {"loiter-reference-server", ""}) {
      const auto from = *name == '\0' ? loiter : loiter.parent_path() / name;
      fs::copy_file(from, dir.path() / from.filename());
    }
    return (dir.path() / loiter.filename()).string();
  }();
  return copy;
}

// The loiter binary a mode runs: the build's own, or for another user the reachable copy.
std::string loiter_binary(uid_t user) { return user == 0 ? LOITER_BINARY : reachable_loiter(); }

// Whether a child of this process may unshare `flags` (0: nothing asked) as `user`, and
// execute loiter as that user.
bool may(int flags, uid_t user) {
  const auto binary = loiter_binary(user);  // before the fork: it may copy
  const pid_t child = ::fork();
  if (child == 0) {  // system calls only: the test has threads
    if (user != 0 && (::setresgid(user, user, user) != 0 || ::setresuid(user, user, user) != 0 ||
                      ::access(binary.c_str(), X_OK) != 0)) {
      ::_exit(1);
    }
    ::_exit(flags == 0 || ::unshare(flags) == 0 ? 0 : 1);
  }
  int status = 0;
  return child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

class Containment : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override {
    if (!GetParam().prefix.empty() && ::access(GetParam().prefix[0].c_str(), X_OK) != 0) {
      GTEST_SKIP() << GetParam().prefix[0] << " is not installed";
    }
    if (GetParam().user != 0 && ::geteuid() != 0) GTEST_SKIP() << "needs root to change user";
    if (!may(GetParam().may, GetParam().user)) {
      GTEST_SKIP() << "here loiter cannot make a " << GetParam().containment << " as user "
                   << GetParam().user << " (or cannot run " << loiter_binary(GetParam().user)
                   << ")";
    }
  }

  // A temporary directory loiter's user may write to.
  void hand_over(const TempDir& tmp) const {
    if (GetParam().user == 0) return;
    ASSERT_EQ(::chown(tmp.path().c_str(), GetParam().user, GetParam().user), 0);
  }

  // loiter's command line for `args` in this mode.
  std::vector<std::string> loiter(const std::vector<std::string>& args) const {
    auto argv = GetParam().prefix;
    argv.push_back(loiter_binary(GetParam().user));
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }

  // Starts loiter against `target`, waits until processes below it run each of `commands`,
  // checks that the first (the keeper) is the containment this mode asks for, kills loiter
  // with SIGKILL and expects every one of them gone within seconds.
  void kill_loiter_mid_scenario(const std::string& target,
                                const std::vector<std::string>& commands) {
    TempDir tmp;
    hand_over(tmp);
    Recorded recorded;
    Child loiter_process(loiter({"check", "--target", target, "--scenario", "silent", "--count",
                                 "50", "--runs", (tmp.path() / "runs").string()}),
                         tmp.path() / "out");
    recorded.pids = wait_for_processes(loiter_process.pid(), commands, 20s);
    ASSERT_GT(recorded.pids.size(), commands.size()) << read_text(tmp.path() / "out");
    EXPECT_EQ(containment_seen(loiter_process.pid(), recorded.pids[0]), GetParam().containment)
        << read_text(tmp.path() / "out");
    loiter_process.signal(SIGKILL);
    EXPECT_EQ(loiter_process.wait(10), -SIGKILL);
    EXPECT_THAT(survivors(recorded.pids, 5s), ::testing::IsEmpty())
        << "processes of the server outlived loiter's kill -9";
  }
};

// nginx's master and worker die with loiter (the keeper, the master, a worker).
TEST_P(Containment, KillNineOfLoiterLeavesNoNginxProcess) {
  if (::access("/usr/sbin/nginx", X_OK) != 0) GTEST_SKIP() << "nginx is not installed";
  kill_loiter_mid_scenario("nginx", {"nginx: master", "nginx: worker"});
}

// A server run as a child of /bin/sh dies with loiter (the keeper, the shell, the server).
TEST_P(Containment, KillNineOfLoiterLeavesNoShellWrappedServer) {
  TempDir tmp;
  hand_over(tmp);  // the target file
  kill_loiter_mid_scenario(write_target(tmp.path(), "wrapped", shell_wrapped()).string(),
                           {"sh -c", "loiter-reference-server --host"});
}

// A daemon detached with setsid dies with loiter (the keeper, the shell's sleep, the daemon).
TEST_P(Containment, KillNineOfLoiterLeavesNoDetachedDaemon) {
  TempDir tmp;
  hand_over(tmp);  // the target file
  kill_loiter_mid_scenario(write_target(tmp.path(), "detaching", detaching()).string(),
                           {"sleep 60", "loiter-reference-server --host"});
}

// A normal run against a server that detaches a daemon names it (PID, command) in a
// leftover-process finding, the daemon is gone after the run, and provenance names the
// containment.
TEST_P(Containment, ANormalRunNamesTheDetachedDaemonInAFinding) {
  TempDir tmp;
  hand_over(tmp);
  const auto target = write_target(tmp.path(), "detaching", detaching());
  const auto json = tmp.path() / "report.json";
  EXPECT_EQ(testing::run(
                loiter({"check", "--target", target.string(), "--scenario", "silent", "--count",
                        "20", "--runs", (tmp.path() / "runs").string(), "--json", json.string()}),
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
  const auto provenance =
      read_text(testing::only_run_directory(tmp.path() / "runs") / "provenance.json");
  EXPECT_THAT(provenance,
              ::testing::HasSubstr("\"containment\": \"" + GetParam().containment + "\""));
}

INSTANTIATE_TEST_SUITE_P(Modes, Containment, ::testing::ValuesIn(kModes), mode_name);

}  // namespace
}  // namespace loiter::suites
