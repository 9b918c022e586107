// `loiter survey` end to end: the survey of the reference server (1 s deadlines) written as
// survey.json and survey.html, its drafted target file taken as it is by `loiter targets`
// and `loiter check`; two surveys compared (a grown deadline is a regression); a server the
// test started itself surveyed by --connect and --pid, its connect-only draft then used by
// `check --connect`; and the inputs refused before anything starts.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "loiter/reports/survey_json.hpp"
#include "started_reference.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using ::testing::HasSubstr;

// Three connections a probe and every wait capped at 3 s: past the 1 s deadlines by far.
const std::vector<std::string> kQuick{"--connections", "3", "--max-wait", "3"};

// The reference server at 1 s deadlines (the header one `header` s), surveyed into `runs`.
int survey(const fs::path& runs, const fs::path& output, const std::string& header = "1",
           const std::vector<std::string>& more = {}) {
  std::vector<std::string> argv{LOITER_BINARY, "survey",
                                "--runs",      runs.string(),
                                "--set",       "deadlines.header=" + header,
                                "--set",       "deadlines.body=1",
                                "--set",       "deadlines.idle=1",
                                "--set",       "promises.send_timeout=1"};
  argv.insert(argv.end(), kQuick.begin(), kQuick.end());
  argv.insert(argv.end(), more.begin(), more.end());
  return run(argv, output);
}

TEST(SurveyCli, DraftsATargetFileThatTargetsAndCheckTakeAsItIs) {
  TempDir tmp;
  const auto draft = tmp.path() / "draft.toml";
  ASSERT_EQ(survey(tmp.path() / "runs", tmp.path() / "out", "1", {"--write", draft.string()}), 0)
      << read_text(tmp.path() / "out");
  const auto console = read_text(tmp.path() / "out");
  EXPECT_THAT(console, HasSubstr("a request head stopped halfway"));
  EXPECT_THAT(console, HasSubstr("408+close"));
  const auto directory = only_run_directory(tmp.path() / "runs");
  const auto found = reports::read_survey(directory);
  ASSERT_NE(reports::find_measure(found, "header-partial"), nullptr);
  ASSERT_TRUE(reports::find_measure(found, "header-partial")->seconds);
  EXPECT_NEAR(reports::find_measure(found, "header-partial")->seconds->median, 1.0, 0.25);
  ASSERT_TRUE(found.server);  // the server loiter started: its processes were seen
  EXPECT_TRUE(fs::is_regular_file(directory / "survey.html"));

  const auto text = read_text(draft);
  EXPECT_THAT(text, HasSubstr("header = 1\n"));
  EXPECT_THAT(text, HasSubstr("on_header_timeout = \"408\""));
  ASSERT_EQ(run({LOITER_BINARY, "targets", draft.string()}, tmp.path() / "targets"), 0)
      << read_text(tmp.path() / "targets");
  EXPECT_THAT(read_text(tmp.path() / "targets"), HasSubstr("header 1 s"));
  // The drafted file's deadlines are the server's flags too ({deadlines.header}): the check
  // starts the server the file describes and holds it to what was measured.
  EXPECT_EQ(run({LOITER_BINARY, "check", "--target", draft.string(), "--runs",
                 (tmp.path() / "check").string(), "--scenario", "partial-header", "--scenario",
                 "keepalive-partial", "--scenario", "partial-body", "--count", "20"},
                tmp.path() / "check.out"),
            0)
      << read_text(tmp.path() / "check.out");
}

// reference-h3 surveyed over HTTP/3 (its [h3] makes it so), its deadlines at 1 s but the
// handshake's (2 s): the draft holds [h3]'s measured keys, and `loiter check` holds the server
// it starts from the draft to them, the brackets' values included.
TEST(SurveyCli, OverHttp3DraftsTheH3KeysThatCheckHoldsTheServerTo) {
  TempDir tmp;
  const auto draft = tmp.path() / "draft.toml";
  ASSERT_EQ(run({LOITER_BINARY,   "survey",
                 "--target",      "reference-h3",
                 "--runs",        (tmp.path() / "runs").string(),
                 "--set",         "h3.header=1",
                 "--set",         "h3.body=1",
                 "--set",         "h3.idle=1",
                 "--set",         "h3.idle_advertised=1",
                 "--set",         "h3.send=1",
                 "--connections", "3",
                 "--max-wait",    "4",
                 "--write",       draft.string()},
                tmp.path() / "out"),
            0)
      << read_text(tmp.path() / "out");
  const auto console = read_text(tmp.path() / "out");
  EXPECT_THAT(console, HasSubstr("over HTTP/3 over QUIC"));
  EXPECT_THAT(console, HasSubstr("H3_CLOSED_CRITICAL_STREAM"));
  const auto found = reports::read_survey(only_run_directory(tmp.path() / "runs"));
  EXPECT_EQ(found.protocol, reports::SurveyProtocol::h3);
  const auto text = read_text(draft);
  EXPECT_THAT(text, HasSubstr("\nheader = 1\n"));
  EXPECT_THAT(text, HasSubstr("\nidle = 1\n"));
  ASSERT_EQ(run({LOITER_BINARY, "targets", draft.string()}, tmp.path() / "targets"), 0)
      << read_text(tmp.path() / "targets");
  EXPECT_EQ(run({LOITER_BINARY, "check", "--target", draft.string(), "--runs",
                 (tmp.path() / "check").string(), "--scenario", "h3-initial-stall", "--scenario",
                 "h3-idle", "--scenario", "h3-headers-stall", "--count", "10"},
                tmp.path() / "check.out"),
            0)
      << read_text(tmp.path() / "check.out") << "\ndraft:\n"
      << text;
}

TEST(SurveyCli, CompareOfTwoSurveysGatesAGrownDeadline) {
  TempDir tmp;
  ASSERT_EQ(survey(tmp.path() / "a", tmp.path() / "a.out", "1"), 0)
      << read_text(tmp.path() / "a.out");
  ASSERT_EQ(survey(tmp.path() / "b", tmp.path() / "b.out", "2"), 0)
      << read_text(tmp.path() / "b.out");
  const auto a = only_run_directory(tmp.path() / "a").string();
  const auto b = only_run_directory(tmp.path() / "b").string();
  EXPECT_EQ(run({LOITER_BINARY, "compare", a, a}, tmp.path() / "aa"), 0)
      << read_text(tmp.path() / "aa");
  EXPECT_EQ(run({LOITER_BINARY, "compare", a, b}, tmp.path() / "ab"), 1)
      << read_text(tmp.path() / "ab");
  EXPECT_THAT(read_text(tmp.path() / "ab"), HasSubstr("header-partial"));
}

TEST(SurveyCli, SurveysARunningServerAndItsDraftGatesItByConnect) {
  TempDir tmp;
  StartedReference server(tmp.path());
  const auto port = server.port();
  ASSERT_NE(port, 0) << server.output();
  const auto endpoint = fmt::format("127.0.0.1:{}", port);
  const auto draft = tmp.path() / "mine.toml";
  std::vector<std::string> argv{LOITER_BINARY, "survey",
                                "--connect",   endpoint,
                                "--pid",       std::to_string(server.pid()),
                                "--echo",      "/echo",
                                "--large",     "/large?bytes={bytes}",
                                "--runs",      (tmp.path() / "runs").string(),
                                "--write",     draft.string()};
  argv.insert(argv.end(), kQuick.begin(), kQuick.end());
  ASSERT_EQ(run(argv, tmp.path() / "out"), 0) << read_text(tmp.path() / "out");
  const auto found = reports::read_survey(only_run_directory(tmp.path() / "runs"));
  ASSERT_TRUE(found.server);
  EXPECT_EQ(found.server->pid, server.pid());
  EXPECT_TRUE(found.server->fds_back);
  const auto* send = reports::find_measure(found, "send-stopped");
  ASSERT_NE(send, nullptr);
  EXPECT_TRUE(send->seconds) << send->ending << " " << send->not_measured;
  EXPECT_THAT(read_text(draft), Not(HasSubstr("command")));
  EXPECT_EQ(run({LOITER_BINARY, "check", "--connect", endpoint, "--pid",
                 std::to_string(server.pid()), "--target", draft.string(), "--runs",
                 (tmp.path() / "check").string(), "--scenario", "partial-header", "--count", "20"},
                tmp.path() / "check.out"),
            0)
      << read_text(tmp.path() / "check.out");
}

// The first Ctrl-C stops a survey that would wait a minute (no header deadline): exit 130 at
// once, the server stopped, and what was measured still shown and written, marked partial.
TEST(SurveyCli, CtrlCStopsTheSurveyAndWhatWasMeasuredIsWritten) {
  TempDir tmp;
  const auto runs = tmp.path() / "runs";
  Child survey({LOITER_BINARY, "survey", "--runs", runs.string(), "--fault", "no-header-deadline",
                "--max-wait", "60", "--connections", "2"},
               tmp.path() / "out");
  ASSERT_TRUE(output_shows(tmp.path() / "out", "probes of", std::chrono::seconds(20)))
      << read_text(tmp.path() / "out");
  survey.signal(SIGINT);
  EXPECT_EQ(survey.wait(15), 130) << read_text(tmp.path() / "out");
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("interrupted: partial"));
  const auto found = reports::read_survey(only_run_directory(runs));
  EXPECT_TRUE(found.interrupted);
  EXPECT_NE(reports::find_measure(found, "header-silent"), nullptr);
}

TEST(SurveyCli, RefusesBeforeAnythingStarts) {
  TempDir tmp;
  const auto refused = [&](std::vector<std::string> args, std::string_view says) {
    args.insert(args.begin(), {LOITER_BINARY, "survey", "--runs", (tmp.path() / "r").string()});
    EXPECT_EQ(run(args, tmp.path() / "out"), 2) << fmt::format("{}", fmt::join(args, " "));
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(says));
    EXPECT_FALSE(fs::exists(tmp.path() / "r"));  // no run directory made
  };
  refused({"--pid", "1"}, "--pid goes with --connect");
  refused({"--connect", "10.1.2.3:80"}, "loopback");
  refused({"--connect", "127.0.0.1:80", "--fault", "no-header-deadline"}, "--fault");
  refused({"--connect", "127.0.0.1:80", "--echo", "echo"}, "must start with '/'");
  refused({"--max-wait", "0"}, "--max-wait");
  refused({"--floods"}, "--floods are HTTP/2's and HTTP/3's");
  refused({"--h3"}, "--h3 goes with --connect");
  refused({"--connect", "127.0.0.1:80", "--h3", "--tls"}, "it goes with neither --tls nor --h2");
  refused({"--connect", "127.0.0.1:80", "--tls", "--floods"}, "--floods are HTTP/2's and HTTP/3's");
  const auto connect_only = tmp.path() / "connect-only.toml";
  std::ofstream(connect_only) << "name = \"x\"\n[deadlines]\nheader = 1\n";
  refused({"--target", connect_only.string()}, "has no command: loiter cannot start this server");
}

}  // namespace
}  // namespace loiter::suites
