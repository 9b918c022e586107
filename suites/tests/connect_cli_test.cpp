// `loiter check --connect HOST:PORT` end to end against a reference server the test starts
// itself (loiter-reference-server from build/bin, 1 s deadlines), described by a target file
// without `command`: with --pid the run is judged whole, server side included (a healthy
// server passes `silent`, one without its header deadline fails it); without --pid the
// server-side checks are listed as not made, neither passed nor failed; Ctrl-C stops the run
// and it still reports; and a connect-only target is refused (exit 2) where loiter would have
// to start it. Each test's server is
// killed and reaped when the test ends, failed or not (Child).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <boost/json.hpp>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "started_reference.hpp"
#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

// What the reference server below promises, as a target file for a server loiter does not
// start: its deadlines and answers, no command.
constexpr char kConnectOnly[] = R"(name = "running-reference"
[deadlines]
header = 1
body = 1
idle = 1
[promises]
on_header_timeout = "408"
on_body_timeout = "408"
send_timeout = 1
)";

struct Checked {
  int exit = -1;
  std::string output;         // stdout and stderr
  boost::json::value report;  // the run directory's report.json
  std::string provenance;     // and its provenance.json
};

// `loiter check --connect` of `silent` (20 connections) against `server`, with its PID when
// `with_pid`.
Checked check_connected(const fs::path& dir, const StartedReference& server, bool with_pid) {
  const auto port = server.port();
  EXPECT_NE(port, 0) << server.output();
  const auto target = dir / "running.toml";
  std::ofstream(target) << kConnectOnly;
  const auto address = fmt::format("127.0.0.1:{}", port);
  std::vector<std::string> argv{LOITER_BINARY,   "check",      "--connect", address,   "--target",
                                target.string(), "--scenario", "silent",    "--count", "20"};
  argv.insert(argv.end(), {"--runs", (dir / "runs").string()});
  if (with_pid) argv.insert(argv.end(), {"--pid", std::to_string(server.pid())});
  Checked checked;
  checked.exit = run(argv, dir / "check.out", 60);
  checked.output = read_text(dir / "check.out");
  const auto run_directory = only_run_directory(dir / "runs");
  checked.report = boost::json::parse(read_text(run_directory / "report.json"));
  checked.provenance = read_text(run_directory / "provenance.json");
  return checked;
}

// A healthy server closes every silent connection within its 1 s header deadline and gives
// its FDs back: the run passes (exit 0), with the server's side sampled and nothing left
// unmade.
TEST(ConnectCli, AHealthyServerPassesWithItsServerSideChecked) {
  TempDir tmp;
  StartedReference server(tmp.path());
  const auto checked = check_connected(tmp.path(), server, /*with_pid=*/true);
  EXPECT_EQ(checked.exit, 0) << checked.output;
  EXPECT_THAT(checked.output, HasSubstr("PASS  silent"));
  EXPECT_THAT(checked.output, HasSubstr(fmt::format("(pid {})", server.pid())));
  EXPECT_THAT(checked.output, Not(HasSubstr("not made")));
  const auto& report = checked.report.as_object();
  EXPECT_FALSE(report.contains("not_made"));
  EXPECT_THAT(std::string(report.at("connected").as_string()),
              HasSubstr(fmt::format("(pid {})", server.pid())));
  const auto& fds = report.at("scenarios").at(0).at("figures");
  EXPECT_THAT(boost::json::serialize(fds), HasSubstr("\"recovered\"")) << "FDs sampled";
  EXPECT_THAT(checked.provenance, HasSubstr("loiter-reference-server")) << "read from its PID";
}

// A server without its header deadline keeps every silent connection open: the run fails
// (exit 1) and says so.
TEST(ConnectCli, AServerWithoutItsHeaderDeadlineFails) {
  TempDir tmp;
  StartedReference server(tmp.path(), {"no-header-deadline"});
  const auto checked = check_connected(tmp.path(), server, /*with_pid=*/true);
  EXPECT_EQ(checked.exit, 1) << checked.output;
  EXPECT_THAT(checked.output, HasSubstr("FAIL  silent"));
  EXPECT_THAT(checked.output, HasSubstr("still open"));
}

// Without --pid nothing of the server is sampled: the server-side checks are listed as not
// made (console and report.json), and the run is judged on its connections alone.
TEST(ConnectCli, WithoutAPidTheServerSideChecksAreListedAsNotMade) {
  TempDir tmp;
  StartedReference server(tmp.path());
  const auto checked = check_connected(tmp.path(), server, /*with_pid=*/false);
  EXPECT_EQ(checked.exit, 0) << checked.output;
  EXPECT_THAT(checked.output, HasSubstr("PASS  silent"));
  EXPECT_THAT(checked.output, HasSubstr("not made (no --pid"));
  EXPECT_THAT(checked.output, HasSubstr("fds-not-recovered"));
  const auto& not_made = checked.report.at("not_made").as_object();
  EXPECT_THAT(std::string(not_made.at("why").as_string()), HasSubstr("no --pid"));
  EXPECT_THAT(boost::json::serialize(not_made.at("checks")), HasSubstr("fds-not-recovered"));
  EXPECT_THAT(boost::json::serialize(not_made.at("checks")), HasSubstr("close-wait"));
}

// Ctrl-C stops a run against a running server as it stops any check: exit 130, the
// scenario recorded as interrupted, the report still written; the server keeps running.
TEST(ConnectCli, CtrlCStopsTheRunAndItStillReports) {
  TempDir tmp;
  StartedReference server(tmp.path());
  const auto port = server.port();
  ASSERT_NE(port, 0) << server.output();
  const auto target = tmp.path() / "running.toml";
  std::ofstream(target) << kConnectOnly;
  const auto out = tmp.path() / "check.out";
  Child check({LOITER_BINARY, "check", "--connect", fmt::format("127.0.0.1:{}", port), "--pid",
               std::to_string(server.pid()), "--target", target.string(), "--runs",
               (tmp.path() / "runs").string()},
              out);
  ASSERT_TRUE(output_shows(out, "silent against running-reference", 10s)) << read_text(out);
  check.signal(SIGINT);
  EXPECT_EQ(check.wait(30), 130) << read_text(out);
  EXPECT_THAT(read_text(out), HasSubstr("interrupted"));
  EXPECT_TRUE(fs::exists(only_run_directory(tmp.path() / "runs") / "report.json"));
  EXPECT_EQ(::kill(server.pid(), 0), 0) << "loiter never stops a server it did not start";
}

// A connect-only target where loiter would start the server, --connect without a target
// (the judge needs promises) and --pid without --connect are refused (exit 2), naming the
// fix, before anything runs.
TEST(ConnectCli, WhatCannotRunAgainstARunningServerIsRefused) {
  TempDir tmp;
  const auto target = tmp.path() / "running.toml";
  std::ofstream(target) << kConnectOnly;
  const auto runs = (tmp.path() / "runs").string();
  const auto refused = [&](std::vector<std::string> extra, std::string_view says) {
    std::vector<std::string> argv{LOITER_BINARY, "check", "--scenario", "silent", "--runs", runs};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto out = tmp.path() / "out";
    EXPECT_EQ(run(argv, out, 20), 2) << read_text(out);
    EXPECT_THAT(read_text(out), HasSubstr(says));
  };
  refused({"--target", target.string()},
          fmt::format("{} has no command: loiter cannot start this server; give --connect "
                      "HOST:PORT",
                      target.string()));
  refused({"--connect", "127.0.0.1:9"}, "--connect needs --target");
  refused({"--pid", "1"}, "--pid goes with --connect");
  refused({"--connect", "192.0.2.1:80", "--target", target.string()}, "--allow-remote");
  EXPECT_FALSE(fs::exists(runs)) << "nothing is made for a refused run";
}

}  // namespace
}  // namespace loiter::suites
