// No input crashes loiter: every subcommand, every option its --help lists (so a new option
// is covered without being named here) and every positional, each given hostile values —
// negative, zero, huge, nan, inf, empty, text for a number, a directory or an unwritable
// path for a file, a malformed --set — ends with 0, 1, 2, 3 or 130, never a signal, and
// says why on stderr when it is 2 or 3; conflicting options are refused naming them.
//
// Each run is short: the base command of a subcommand is refused by its last check (a --runs
// or --out under a regular file), so a value the other checks accept starts no server; the
// few runs that are accepted (a --runs that can be made) run one connection of rst-abort, the
// quickest scenario, in under a second (observe watches for 0.3 s). The runs are forks of this
// process that run loiter's command line (Launch::fork: the same parsing, checks and commands,
// without the executable's 20 ms start, which was two thirds of ~1,350 runs' time); each
// --help is read from the executable itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "cli_batch.hpp"
#include "cli_run.hpp"
#include "help_options.hpp"
#include "hostile_inputs.hpp"

namespace loiter::suites::hostile_inputs_test {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kRunTimeout = 30;  // s; a refusal takes milliseconds
constexpr std::size_t kAtOnce = 2;

using hostile_inputs::argv_of;
using hostile_inputs::command_named;
using hostile_inputs::commands;
using hostile_inputs::kNotANumber;
using hostile_inputs::make_paths;
using hostile_inputs::values_for;

std::string shown(const BatchRun& run) {
  std::string text;
  for (std::size_t i = 1; i < run.argv.size(); ++i) {
    text += (i > 1 ? " '" : "'") + run.argv[i].substr(0, 80) + "'";
  }
  return text + "\nstdout: " + run.out.substr(0, 600) + "\nstderr: " + run.err.substr(0, 600);
}

// Ended, with an exit code loiter documents; a bad input or a fault said on stderr; no
// range printed as DBL_MAX or as C's "%f" of one.
void expect_clean(const BatchRun& run) {
  EXPECT_FALSE(run.timed_out) << "did not end in " << kRunTimeout << " s: " << shown(run);
  EXPECT_GE(run.status, 0) << "ended by signal " << -run.status << ": " << shown(run);
  EXPECT_THAT((std::set<int>{0, 1, 2, 3, 130}), ::testing::Contains(run.status)) << shown(run);
  if (run.status == 2 || run.status == 3) {
    EXPECT_NE(run.err.find_first_not_of(" \n"), std::string::npos)
        << "exit " << run.status << " without a word on stderr: " << shown(run);
  }
  EXPECT_THAT(run.err, Not(HasSubstr("179769313"))) << shown(run);
  EXPECT_THAT(run.err, Not(HasSubstr(".000000"))) << shown(run);
  EXPECT_THAT(run.err, Not(HasSubstr("terminate called"))) << shown(run);
}

std::string help_of(const std::vector<std::string>& words, const fs::path& root) {
  const auto runs = run_batch({words}, root, kRunTimeout, 1);
  EXPECT_EQ(runs[0].status, 0) << shown(runs[0]);
  return runs[0].out;
}

// Every subcommand loiter's --help lists has a base command here (and so its table).
TEST(HostileInputs, EverySubcommandHasABaseCommand) {
  TempDir tmp;
  const auto paths = make_paths(tmp);
  const auto all = commands(paths);
  const auto listed = help_subcommands(help_of({LOITER_BINARY, "--help"}, paths.root));
  EXPECT_GE(listed.size(), 9u);
  for (const auto& name : listed) EXPECT_NO_THROW(command_named(all, name)) << name;
}

class EveryOption : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryOption, EndsCleanlyWhateverItIsGiven) {
  TempDir tmp;
  const auto paths = make_paths(tmp);
  const auto all = commands(paths);
  const auto& command = command_named(all, GetParam());
  const auto options =
      help_options(help_of({LOITER_BINARY, command.name, "--help"}, paths.root / "help"));
  ASSERT_FALSE(options.empty() && command.name != "targets") << "no options read from --help";
  std::vector<std::vector<std::string>> argvs;
  // A numeric option given what is not a number: refused naming it (not by the base's last
  // check, which would refuse any value).
  std::vector<std::string> refused_naming;
  for (const auto& option : options) {
    for (const auto& value : values_for(option, paths)) {
      argvs.push_back(argv_of(command, option.name, value));
      const bool numeric = !option.type.empty() && option.type != "TEXT";
      const bool not_a_number = std::ranges::find(kNotANumber, value) != kNotANumber.end();
      refused_naming.push_back(numeric && not_a_number ? option.name : "");
    }
  }
  const auto runs = run_batch(argvs, paths.root, kRunTimeout, kAtOnce, Launch::fork);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    expect_clean(runs[i]);
    if (!refused_naming[i].empty()) {
      EXPECT_EQ(runs[i].status, 2) << "not refused: " << shown(runs[i]);
      EXPECT_THAT(runs[i].err, HasSubstr(refused_naming[i])) << shown(runs[i]);
    }
  }
  // No server or client of the accepted runs outlives its run.
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const auto cmdline = read_text(entry.path() / "cmdline");
    EXPECT_THAT(cmdline, Not(HasSubstr(tmp.path().string()))) << entry.path();
  }
  RecordProperty("runs", static_cast<int>(runs.size()));
}

INSTANTIATE_TEST_SUITE_P(HostileInputs, EveryOption,
                         ::testing::Values("check", "matrix", "report", "compare", "drive",
                                           "ladder", "targets", "merge", "observe", "k8s-job"),
                         [](const auto& param) {
                           auto name = param.param;
                           std::erase(name, '-');
                           return name;
                         });

// Options that contradict each other are refused (exit 2) with a message naming them.
TEST(HostileInputs, ConflictingOptionsAreRefusedNamingThem) {
  TempDir tmp;
  const auto paths = make_paths(tmp);
  const auto dir = paths.dir.string();
  const auto out = (paths.file / "out").string();
  const auto pid = std::to_string(::getpid());
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases{
      {{"check", "--scenario", "soak", "--churn-fresh", "0.6", "--churn-server-close", "0.6"},
       {"--churn-fresh 0.6", "--churn-server-close 0.6", "exceed 1"}},
      {{"check", "--churn-abort", "0.5", "--churn-fresh", "0.6"},
       {"--churn-fresh 0.6", "--churn-abort 0.5"}},
      {{"observe", "--pid", pid, "--target", "reference", "--out", out, "--duration", "1"},
       {"--target"}},
      {{"observe", "--target", "reference", "--port", "80", "--out", out, "--duration", "1"},
       {"--port"}},
      {{"report", dir, "--matrix", dir}, {"RUN or --matrix"}},
      {{"drive", "idle-keepalive", "--connect", "127.0.0.1:1", "--alpn", "h2"}, {"--alpn"}},
      {{"drive", "silent", "--connect", "127.0.0.1:1", "--interval", "1"}, {"--interval"}},
      {{"check", "--shard", "0/1", "--scenario", "silent"}, {"--start-at"}},
      {{"k8s-job", "--image", "img", "--shards", "2", "--connect", "10.0.0.1:80", "--claim", "c",
        "--scenario", "silent", "--start-at", "2000-01-01T00:00:00Z"},
       {"--start-at"}},
      {{"matrix", "--targets", "reference,nosuch", "--runs", out}, {"nosuch"}},
  };
  std::vector<std::vector<std::string>> argvs;
  for (const auto& [words, _] : cases) {
    argvs.push_back({LOITER_BINARY});
    argvs.back().insert(argvs.back().end(), words.begin(), words.end());
  }
  const auto runs = run_batch(argvs, paths.root, kRunTimeout, kAtOnce, Launch::fork);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    expect_clean(runs[i]);
    EXPECT_EQ(runs[i].status, 2) << shown(runs[i]);
    for (const auto& words : cases[i].second) {
      EXPECT_THAT(runs[i].err, HasSubstr(words)) << shown(runs[i]);
    }
  }
}

// --help of every subcommand reads its ranges as numbers: no DBL_MAX, no exponent.
TEST(HostileInputs, HelpReadsRangesAsPlainNumbers) {
  TempDir tmp;
  const auto paths = make_paths(tmp);
  for (const auto& command : commands(paths)) {
    const auto help = help_of({LOITER_BINARY, command.name, "--help"}, paths.root / command.name);
    EXPECT_THAT(help, Not(HasSubstr("179769313"))) << command.name;
    EXPECT_THAT(help, Not(::testing::ContainsRegex("[0-9]e[+-]?[0-9]"))) << command.name;
  }
}

}  // namespace
}  // namespace loiter::suites::hostile_inputs_test
