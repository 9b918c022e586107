// Every bad input is refused before anything starts, with exit 2 and a message naming the
// problem; the readiness wait honours the target's timeout and the user's Ctrl-C; compare
// refuses a gate with nothing to gate on; report renders a stored survey and ladder again; a
// late --json failure keeps the verdict. Each test leaves no process behind (a server that
// never listens is stopped with its group). `loiter drive`'s own: drive_cli_test.cpp.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_run.hpp"
#include "loiter/clients/time_scale.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "loiter/reports/survey_json.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "loiter/testing/wait.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;
using SteadyClock = std::chrono::steady_clock;

double scale() { return clients::time_scale(); }  // LOITER_TIME_SCALE, read once for all

// Writes a target file; `server` is the /bin/sh script the server runs.
fs::path target_file(const fs::path& dir, const std::string& server, const std::string& extra) {
  const auto path = dir / "mine.toml";
  std::ofstream(path) << "name = \"mine\"\ncommand = [\"/bin/sh\", \"-c\", \"" << server << "\"]\n"
                      << extra;
  return path;
}

// `check --target FILE` refused: exit 2, the message, and nothing started (the server's
// first act would have been to touch a file; no run directory was made).
void expect_target_refused(const std::string& server, const std::string& extra,
                           const std::string& message) {
  TempDir tmp;
  const auto mark = tmp.path() / "started";
  const auto file = target_file(tmp.path(), "touch " + mark.string() + "; " + server, extra);
  EXPECT_EQ(loiter(tmp, {"check", "--target", file.string()}), 2) << read_text(tmp.path() / "out");
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message));
  EXPECT_FALSE(fs::exists(mark)) << "the server was started";
  EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << "a run directory was made";
}

// `loiter --version` prints the version every document's header carries and exits 0, with no
// command (a command is required otherwise).
TEST(CliVersion, PrintsTheVersionAndExitsZeroWithoutACommand) {
  TempDir tmp;
  EXPECT_EQ(run({LOITER_BINARY, "--version"}, tmp.path() / "out"), 0);
  EXPECT_EQ(read_text(tmp.path() / "out"), "loiter " LOITER_VERSION "\n");
  EXPECT_EQ(run({LOITER_BINARY}, tmp.path() / "none"), 2);
  EXPECT_THAT(read_text(tmp.path() / "none"), HasSubstr("A subcommand is required"));
}

// An unknown --fault is refused with the known ones listed, before the reference server starts.
TEST(CliRefuses, AnUnknownFaultListingTheKnownOnes) {
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"check", "--fault", "nosuch"}), 2);
  const auto out = read_text(tmp.path() / "out");
  EXPECT_THAT(out, HasSubstr("unknown fault 'nosuch' (known: no-header-deadline,"));
  EXPECT_FALSE(fs::exists(tmp.path() / "runs"));
}

// --set of an unknown table or key, or of a value of the wrong type, is refused naming it,
// before any server starts; so is --fault for a target that does not run the reference.
TEST(CliRefuses, ASettingOfAnUnknownKeyOrTheWrongTypeNamingIt) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"check", "--set", "deadlines.headr=1"},
       "reference.toml: unknown key 'deadlines.headr' (known here: header, body"},
      {{"check", "--target", "nginx", "--set", "deadline.header=1"},
       "nginx.toml: unknown key 'deadline' (known here: name,"},
      {{"check", "--set", "deadlines.header=soon"},
       "reference.toml: key 'deadlines.header': expected a positive number of seconds, got "
       "\"soon\" (--set deadlines.header=soon)"},
      {{"check", "--set", "deadlines.header"}, "--set deadlines.header: expected table.key=value"},
      {{"check", "--header-timeout", "1", "--set", "deadlines.header=3"},
       "--set deadlines.header=3: key 'deadlines.header' is set twice"},
      {{"check", "--target", "nginx", "--fault", "no-header-deadline"},
       "target 'nginx' does not run it"},
      {{"check", "--target", "reference-h3", "--set", "h3.header_408=yes"},
       "reference-h3.toml: key 'h3.header_408': expected true or false, got \"yes\""},
      {{"check", "--target", "reference-h3", "--set", "h3.body_408=1"},
       "reference-h3.toml: key 'h3.body_408': expected true or false, got 1"}};
  for (const auto& [args, message] : cases) {
    TempDir tmp;
    EXPECT_EQ(loiter(tmp, args), 2) << args.back();
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message));
    EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << "a run directory was made";
  }
}

// `loiter targets` of an [h3]-only target shows its QUIC listener and its [h3] deadlines, not
// a cleartext listener and the HTTP/1.1 deadlines it does not declare.
TEST(CliTargets, AnH3TargetShowsItsQuicListenerAndItsH3Deadlines) {
  TempDir tmp;
  ASSERT_EQ(run({LOITER_BINARY, "targets", "reference-h3"}, tmp.path() / "out"), 0)
      << read_text(tmp.path() / "out");
  const auto bundled = read_text(tmp.path() / "out");
  EXPECT_THAT(bundled, HasSubstr("listener: QUIC on UDP {port} (the TCP listener's number) (TLS "
                                 "1.3 inside, ALPN h3, SNI localhost)"));
  EXPECT_THAT(bundled, HasSubstr("deadlines: [h3] handshake 2 s, idle 2 s kept (advertised 2 s), "
                                 "header 2 s, body 2 s, send 2 s"));
  EXPECT_THAT(bundled, HasSubstr("readiness: GET /health over HTTP/3 within 10 s"));
  EXPECT_THAT(bundled, Not(HasSubstr("cleartext")));
  EXPECT_THAT(bundled, Not(HasSubstr("header none")));
  const auto file = tmp.path() / "quic.toml";
  std::ofstream(file) << "name = \"quic\"\n[h3]\nport = 8443\nheader = 1.5\n";
  ASSERT_EQ(run({LOITER_BINARY, "targets", file.string()}, tmp.path() / "out"), 0)
      << read_text(tmp.path() / "out");
  const auto declared = read_text(tmp.path() / "out");
  EXPECT_THAT(declared, HasSubstr("listener: QUIC on UDP 8443 (TLS 1.3 inside"));
  EXPECT_THAT(declared, HasSubstr("[h3] handshake none, idle none kept (advertised none), header "
                                  "1.5 s, body none, send none"));
}

// A target command that never names {port} (and no fixed port) is refused with the fix.
TEST(CliRefuses, ATargetThatIsNeverToldItsPort) {
  expect_target_refused("exec sleep 30", "",
                        "the server is never told its port: put {port} in the command");
}

// [[files]] path = "." names the run directory itself, not a file.
TEST(CliRefuses, AFilePathThatIsNotAFileInsideTheRunDirectory) {
  expect_target_refused("exec sleep 30 # {port}", "[[files]]\npath = \".\"\ntemplate = \"x\"\n",
                        "key 'files[0].path': expected a file name inside the run directory");
}

// A deadline of 1e9 s names the limit it exceeds, in a target file and on the command line.
TEST(CliRefuses, ADeadlineBeyondTheLimitNamingIt) {
  expect_target_refused("exec sleep 30 # {port}", "[deadlines]\nheader = 1e9\n",
                        "beyond the limit of 1000000 s");
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"check", "--header-timeout", "1e9"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("1e9 s is beyond the limit of 1000000 s"));
}

// --json that is a directory, in a missing directory, or inside another run's directory is
// refused before the run; that run's report.json is left as it was.
TEST(CliRefuses, AJsonPathThatCannotOrMustNotBeWritten) {
  TempDir tmp;
  const auto other = tmp.path() / "20261201T020000Z-reference";
  fs::create_directories(other / "records");
  fs::create_directories(other / "timeline");
  std::ofstream(other / "report.json") << "the other run's document";
  const std::vector<std::pair<fs::path, std::string>> cases{
      {tmp.path(), "it is a directory"},
      {tmp.path() / "missing" / "r.json", "does not exist"},
      {other / "report.json", "inside the run directory"}};
  for (const auto& [path, message] : cases) {
    EXPECT_EQ(loiter(tmp, {"check", "--scenario", "silent", "--json", path.string()}), 2) << path;
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message)) << path;
    EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << path;
  }
  EXPECT_EQ(read_text(other / "report.json"), "the other run's document");
}

// --junit that is a directory or in a missing directory is refused before the run, by check
// and by matrix alike.
TEST(CliRefuses, AJunitPathThatCannotBeWritten) {
  TempDir tmp;
  const std::vector<std::pair<fs::path, std::string>> cases{
      {tmp.path(), "it is a directory"}, {tmp.path() / "missing" / "j.xml", "does not exist"}};
  for (const auto& [path, message] : cases) {
    for (const std::string command : {"check", "matrix"}) {
      EXPECT_EQ(loiter(tmp, {command, "--scenario", "silent", "--junit", path.string()}), 2)
          << command << " " << path;
      const auto out = read_text(tmp.path() / "out");
      EXPECT_THAT(out, HasSubstr("--junit " + path.string() + ": ")) << command << " " << path;
      EXPECT_THAT(out, HasSubstr(message)) << command << " " << path;
      EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << command << " " << path;
    }
  }
}

// check waits for readiness as long as the target file says (1 s, widened by the time scale
// as every readiness timeout is), not 10 s.
TEST(CliReadiness, TheTargetsTimeoutIsHonoured) {
  TempDir tmp;
  const auto file = target_file(tmp.path(), "exec sleep 30 # {port}",
                                "[readiness]\ntimeout = 1\n[deadlines]\nheader = 1\n");
  const auto start = SteadyClock::now();
  EXPECT_EQ(loiter(tmp, {"check", "--target", file.string(), "--scenario", "silent"}), 3);
  EXPECT_LT(SteadyClock::now() - start, 5s * scale());
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(fmt::format("within {:.1f} s", scale())));
}

// Ctrl-C during the readiness wait is acted on at once: exit 130, the scenario recorded as
// interrupted, not as a server that never became ready.
TEST(CliReadiness, CtrlCDuringTheWaitStopsAtOnceAsInterrupted) {
  TempDir tmp;
  const auto mark = tmp.path() / "spawned";
  const auto file = target_file(tmp.path(), "touch " + mark.string() + "; exec sleep 30 # {port}",
                                "[readiness]\ntimeout = 60\n[deadlines]\nheader = 1\n");
  Child check({LOITER_BINARY, "check", "--target", file.string(), "--scenario", "silent", "--runs",
               (tmp.path() / "runs").string()},
              tmp.path() / "out");
  // Polling for the file the server writes.
  ASSERT_TRUE(loiter::testing::wait_for([&] { return fs::exists(mark); }, "the server's mark",
                                        10s * scale()))
      << read_text(tmp.path() / "out");
  const auto signalled = SteadyClock::now();
  check.signal(SIGINT);
  EXPECT_EQ(check.wait(10 * scale()), 130) << read_text(tmp.path() / "out");
  EXPECT_LT(SteadyClock::now() - signalled, 1s * scale());
  const auto out = read_text(tmp.path() / "out");
  EXPECT_THAT(out, HasSubstr("interrupted by the user"));
  EXPECT_THAT(out, Not(HasSubstr("did not answer")));
  EXPECT_THAT(read_text(only_run_directory(tmp.path() / "runs") / "report.json"),
              HasSubstr("interrupted by the user"));
}

// Writes a run document with these scenarios (each passed) against `target`.
fs::path stored_run(const fs::path& dir, const std::string& target,
                    const std::vector<std::string>& scenarios) {
  reports::RunReport report{.loiter_version = "0.1.0", .target = target, .started_at = "now"};
  for (const auto& id : scenarios) report.scenarios.push_back({.id = id});
  fs::create_directories(dir);
  write_file(dir / "report.json", reports::run_report_text(report));
  return dir;
}

// compare of runs sharing no scenario exits 2 (no gate passes on nothing); runs of different
// targets are compared with a warning, or refused with --require-same-target.
TEST(CliCompare, RefusesRunsThatShareNoScenarioAndWarnsOfAnotherTarget) {
  TempDir tmp;
  const auto a = stored_run(tmp.path() / "a", "reference", {"silent"}).string();
  const auto b = stored_run(tmp.path() / "b", "reference", {"partial-header"}).string();
  const auto c = stored_run(tmp.path() / "c", "nginx", {"silent"}).string();
  EXPECT_EQ(run({LOITER_BINARY, "compare", a, b}, tmp.path() / "ab"), 2);
  EXPECT_THAT(read_text(tmp.path() / "ab"), HasSubstr("the runs share no scenario"));
  EXPECT_EQ(run({LOITER_BINARY, "compare", a, c}, tmp.path() / "ac"), 0);
  EXPECT_THAT(read_text(tmp.path() / "ac"),
              HasSubstr("warning: the runs are of different targets: reference (baseline), nginx"));
  EXPECT_EQ(run({LOITER_BINARY, "compare", "--require-same-target", a, c}, tmp.path() / "ac2"), 2);
  EXPECT_THAT(read_text(tmp.path() / "ac2"), HasSubstr("--require-same-target"));
}

// compare takes two runs or two surveys: a survey (a directory holding survey.json, or a .json
// of schema loiter-survey/...) against a run is refused (exit 2), naming which is which.
TEST(CliCompare, RefusesASurveyAgainstARun) {
  TempDir tmp;
  const auto run_dir = stored_run(tmp.path() / "run", "reference", {"silent"});
  fs::create_directories(tmp.path() / "survey");
  write_file(tmp.path() / "survey" / "survey.json",
             "{\"schema\": \"loiter-survey/1\", \"target\": \"reference\"}\n");
  EXPECT_EQ(run({LOITER_BINARY, "compare", (tmp.path() / "survey").string(), run_dir.string()},
                tmp.path() / "sr"),
            2);
  EXPECT_THAT(read_text(tmp.path() / "sr"),
              HasSubstr("compare takes two runs or two surveys, not one of each"));
  EXPECT_EQ(run({LOITER_BINARY, "compare", (run_dir / "report.json").string(),
                 (tmp.path() / "survey" / "survey.json").string()},
                tmp.path() / "rs"),
            2);
  EXPECT_THAT(read_text(tmp.path() / "rs"), HasSubstr("survey.json is a survey"));
}

// report renders a stored survey and a stored ladder again, each told by its schema: the
// survey's table and survey.html (no JUnit: a survey judges nothing), the ladder's table,
// ladder.html and JUnit; compare refuses a ladder, which compares builds itself.
TEST(CliReport, RendersAStoredSurveyAndLadderAgain) {
  TempDir tmp;
  reports::Survey survey{.target = "mine", .endpoint = "127.0.0.1:8080", .protocol = reports::SurveyProtocol::http1};
  survey.measures.push_back({.id = "header-silent",
                             .title = "a silent connection",
                             .kind = "silent",
                             .from = "connect",
                             .connections = 5,
                             .agreed = 5,
                             .seconds = reports::Spread{.min = 2, .median = 2.01, .max = 2.02},
                             .ending = {.way = reports::SurveyEnding::Way::close}});
  fs::create_directories(tmp.path() / "survey");
  write_file(tmp.path() / "survey" / "survey.json", reports::survey_text(survey));
  EXPECT_EQ(run({LOITER_BINARY, "report", (tmp.path() / "survey").string()}, tmp.path() / "s"),
            0)
      << read_text(tmp.path() / "s");
  EXPECT_THAT(read_text(tmp.path() / "s"), HasSubstr("a silent connection  2.01 s from connect"));
  EXPECT_TRUE(fs::exists(tmp.path() / "survey" / "survey.html"));
  EXPECT_EQ(run({LOITER_BINARY, "report", (tmp.path() / "survey").string(), "--junit",
                 (tmp.path() / "s.xml").string()},
                tmp.path() / "sj"),
            2);
  EXPECT_THAT(read_text(tmp.path() / "sj"), HasSubstr("a survey judges nothing"));

  reports::Ladder ladder{.trial_seconds = 1, .trials = 1, .p99_bound_ms = 200};
  ladder.sides.push_back({.role = "target", .target = "mine", .protocol = "http1"});
  ladder.sides[0].steps.push_back({.kind = reports::StepKind::rate, .rate = 1000,
                                   .connections = 8, .requested_rate = 1000,
                                   .dispatched_rate = 1000, .succeeded_rate = 1000,
                                   .within = true});
  fs::create_directories(tmp.path() / "ladder");
  write_file(tmp.path() / "ladder" / "ladder.json", reports::ladder_text(ladder));
  EXPECT_EQ(run({LOITER_BINARY, "report", (tmp.path() / "ladder" / "ladder.json").string(),
                 "--junit", (tmp.path() / "l.xml").string()},
                tmp.path() / "l"),
            0)
      << read_text(tmp.path() / "l");
  EXPECT_THAT(read_text(tmp.path() / "l"), HasSubstr("1,000/s"));
  EXPECT_TRUE(fs::exists(tmp.path() / "ladder" / "ladder.html"));
  EXPECT_THAT(read_text(tmp.path() / "l.xml"), HasSubstr("<testsuite"));
  EXPECT_EQ(run({LOITER_BINARY, "compare", (tmp.path() / "ladder").string(),
                 (tmp.path() / "ladder").string()},
                tmp.path() / "lc"),
            2);
  EXPECT_THAT(read_text(tmp.path() / "lc"), HasSubstr("a ladder compares two builds itself"));
}

// An --json that can no longer be written at the end does not hide the verdict: the failing
// run still exits 1 and names its run directory.
TEST(CliFinish, ALateJsonFailureKeepsTheVerdictAndNamesTheRunDirectory) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "gone");
  Child check({LOITER_BINARY, "check", "--scenario", "silent", "--count", "5", "--header-timeout",
               "1", "--fault", "no-header-deadline", "--json",
               (tmp.path() / "gone" / "r.json").string(), "--runs", (tmp.path() / "runs").string()},
              tmp.path() / "out");
  ASSERT_TRUE(output_shows(tmp.path() / "out", "silent against", 30s))
      << read_text(tmp.path() / "out");
  fs::remove_all(tmp.path() / "gone");  // after the refusals, before the end
  EXPECT_EQ(check.wait(60 * scale()), 1) << read_text(tmp.path() / "out");
  const auto out = read_text(tmp.path() / "out");
  EXPECT_THAT(out, HasSubstr("cannot write"));
  EXPECT_THAT(out, HasSubstr("run directory: "));
  EXPECT_TRUE(fs::exists(only_run_directory(tmp.path() / "runs") / "report.json"));
}

}  // namespace
}  // namespace loiter::suites
