// `loiter drive`: what it refuses before a client connects (exit 2, naming the kinds that
// take an option), a closed port as an error named in the summary, and kinds driven by name
// against the reference server: header-lines paced at --interval, reader-pause asking for a
// response the kernel cannot hold, an HTTP/3 kind over QUIC.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <boost/json.hpp>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_run.hpp"
#include "loiter/clients/time_scale.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/runner/target_choice.hpp"

namespace loiter::suites {
namespace drive_cli_test {  // named: unity batches put other tests' helpers beside these

namespace fs = std::filesystem;
using namespace testing;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

double scale() { return clients::time_scale(); }

// The lines of records/KIND.jsonl in the run directory `dir`: one a connection.
std::vector<std::string> record_lines(const fs::path& dir, std::string_view kind) {
  std::ifstream records(dir / fmt::format("records/{}.jsonl", kind));
  std::vector<std::string> lines;
  for (std::string line; std::getline(records, line);) lines.push_back(line);
  return lines;
}

// drive --pid of no process is refused; nothing connects, no FDs 0/0/0 are reported.
TEST(CliRefuses, DriveWithAPidOfNoProcess) {
  if (::kill(999999, 0) == 0 || errno != ESRCH) GTEST_SKIP() << "PID 999999 exists here";
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"drive", "silent", "--connect", "127.0.0.1:9", "--pid", "999999"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("--pid 999999: no such process"));
  EXPECT_FALSE(fs::exists(tmp.path() / "runs"));
}

// drive against a closed port exits 3 and its summary (stdout) says "connection refused".
TEST(CliDrive, AClosedPortIsAnErrorNamedInTheSummary) {
  TempDir tmp;
  const auto port = fixtures::free_port("127.0.0.1");  // nothing listens there now
  EXPECT_EQ(loiter(tmp, {"drive", "silent", "--connect", fmt::format("127.0.0.1:{}", port),
                         "--count", "3", "--patience", "2"}),
            3);
  const auto out = read_text(tmp.path() / "out");
  EXPECT_THAT(out, HasSubstr("ERROR silent"));
  EXPECT_THAT(out, HasSubstr("connection refused: 3 of 3 connects failed"));
}

// --interval is for kinds that pace their sends: for any other it is refused, naming them.
TEST(CliRefuses, DriveIntervalForAKindThatSendsAtNoInterval) {
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"drive", "silent", "--connect", "127.0.0.1:9", "--interval", "0.1"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("--interval: silent does not take it (kinds that do: body-trickle, "));
  EXPECT_FALSE(fs::exists(tmp.path() / "runs"));
}

// --pause is for kinds that pause, --path for kinds that request one: otherwise refused,
// naming the kinds that take them.
TEST(CliRefuses, DrivePauseOrPathForAKindThatTakesNone) {
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"drive", "silent", "--connect", "127.0.0.1:9", "--pause", "1"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("--pause: silent does not take it (kinds that do: h3-idle, "
                        "h3-initial-stall, keepalive-partial, reader-pause, tls-late-head)"));
  EXPECT_EQ(loiter(tmp, {"drive", "silent", "--connect", "127.0.0.1:9", "--path", "/x"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("--path: silent requests no path"));
  EXPECT_EQ(loiter(tmp, {"drive", "reader-pause", "--connect", "127.0.0.1:9", "--path", "x"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("--path 'x' must start with '/'"));
  EXPECT_FALSE(fs::exists(tmp.path() / "runs"));
}

// TLS options go with --tls, and the kind that completes a handshake needs it: refused
// before anything connects, saying what to add.
TEST(CliRefuses, DriveTlsOptionsWithoutTls) {
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"drive", "silent", "--connect", "127.0.0.1:9", "--sni", "x.test"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("--alpn and --sni go with --tls"));
  EXPECT_EQ(loiter(tmp, {"drive", "tls-handshake-silent", "--connect", "127.0.0.1:9"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("tls-handshake-silent completes a TLS handshake: add --tls"));
  EXPECT_EQ(loiter(tmp, {"drive", "tls-late-head", "--connect", "127.0.0.1:9"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("tls-late-head completes a TLS handshake: add --tls"));
  EXPECT_FALSE(fs::exists(tmp.path() / "runs"));
}

// drive header-lines sends a whole header line per --interval: its records show them.
TEST(CliDrive, HeaderLinesSendsAWholeLinePerInterval) {
  TempDir tmp;
  // A header deadline far longer than the test: only the clients' patience ends them.
  fixtures::ServerUnderTest sut(
      fixtures::reference_target({.header = 60s, .body = 60s, .idle = 60s}));
  EXPECT_EQ(loiter(tmp, {"drive", "header-lines", "--connect",
                         fmt::format("{}:{}", sut.host(), sut.port()), "--count", "2", "--interval",
                         "0.1", "--patience", "1"}),
            0)
      << read_text(tmp.path() / "out");
  const auto runs = tmp.path() / "runs";
  ASSERT_TRUE(fs::exists(runs));
  const auto dir = fs::directory_iterator(runs)->path();
  const auto lines = record_lines(dir, "header-lines");
  for (const auto& line : lines) {
    const auto sends = boost::json::parse(line).at("sends").as_array();
    // The request line, then about ten lines in the second of patience.
    EXPECT_GE(sends.size(), 1u + 5u) << line;
    EXPECT_LE(sends.size(), 1u + 10u) << line;
    for (std::size_t i = 1; i < sends.size(); ++i) {
      EXPECT_EQ(sends[i].at(1).to_number<std::size_t>(),
                fmt::format("X-Loiter-{0}: {0}\r\n", i).size());
    }
  }
  EXPECT_EQ(lines.size(), 2u);
}

// drive reader-pause --path '/large?bytes={bytes}' asks for a response the kernel's buffers
// cannot hold, and --pause sets how long it reads nothing: its records show megabytes still
// unsent when the pause began, and a short pause the server let finish.
TEST(CliDrive, ReaderPauseAsksForAResponseTheKernelCannotHold) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(
      fixtures::reference_target({.header = 60s, .body = 60s, .idle = 60s, .send = 60s}));
  EXPECT_EQ(loiter(tmp, {"drive", "reader-pause", "--connect",
                         fmt::format("{}:{}", sut.host(), sut.port()), "--count", "2", "--pause",
                         "0.2", "--path", "/large?bytes={bytes}", "--patience", "20"}),
            0)
      << read_text(tmp.path() / "out");
  const auto dir = fs::directory_iterator(tmp.path() / "runs")->path();
  const auto lines = record_lines(dir, "reader-pause");
  for (const auto& line : lines) {
    const auto record = boost::json::parse(line).as_object();
    const auto& pause = record.at("pause").as_object();
    EXPECT_GT(pause.at("unsent").to_number<double>(), 4.0 * 1024 * 1024) << line;
    const auto pause_took =
        pause.at("until").to_number<double>() - pause.at("from").to_number<double>();
    EXPECT_NEAR(pause_took, 0.2, 0.1 * scale()) << line;
    const auto& responses = record.at("responses").as_array();
    ASSERT_EQ(responses.size(), 1u) << line;
    EXPECT_FALSE(responses[0].at("complete").is_null()) << "a short pause must finish: " << line;
  }
  EXPECT_EQ(lines.size(), 2u);
}

// drive runs an HTTP/3 kind by name against reference-h3 (QUIC on its UDP port): h3-idle
// with --pause 3 probes 3 s after its last packet, past the server's 1 s idle deadline, and
// finds the connection forgotten (gone). Without the pause reaching the kind there is no
// probe, and each connection waits out its patience instead.
TEST(CliDrive, AnHttp3KindRunsByNameOverQuic) {
  TempDir tmp;
  fixtures::ServerUnderTest sut(
      choose_target({.name = "reference-h3", .settings = {"h3.idle=1", "h3.idle_advertised=1"}}));
  const auto udp = fixtures::h3_port(sut.target(), sut.port());
  EXPECT_EQ(loiter(tmp, {"drive", "h3-idle", "--connect", fmt::format("{}:{}", sut.host(), udp),
                         "--count", "2", "--pause", "3", "--patience", "15"}),
            0)
      << read_text(tmp.path() / "out");
  // The last live line counts them opened (their handshakes done) and ended by how.
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("opened 2  waiting 0  ended gone 2"));
  const auto dir = only_run_directory(tmp.path() / "runs");
  const auto lines = record_lines(dir, "h3-idle");
  for (const auto& line : lines) {
    const auto record = boost::json::parse(line).as_object();
    EXPECT_EQ(record.at("kind").as_string(), "h3-idle") << line;
    EXPECT_EQ(record.at("ending").as_string(), "gone") << line;
  }
  EXPECT_EQ(lines.size(), 2u);
}

// --tls is TCP's: an HTTP/3 kind brings QUIC's own TLS 1.3, and says so.
TEST(CliDrive, AnHttp3KindRefusesTls) {
  TempDir tmp;
  EXPECT_EQ(loiter(tmp, {"drive", "h3-idle", "--connect", "127.0.0.1:9", "--tls"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("h3-idle speaks QUIC"));
  EXPECT_FALSE(fs::exists(tmp.path() / "runs"));
}

}  // namespace drive_cli_test
}  // namespace loiter::suites
