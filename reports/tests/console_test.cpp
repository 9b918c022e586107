// The console summary matches its golden file line by line; colours only when asked.
#include "loiter/reports/console.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "golden.hpp"
#include "sample_report.hpp"

namespace loiter::reports {
namespace {

TEST(Console, SummaryMatchesGolden) {
  std::ostringstream out;
  render_console(testing::sample_report(), out);
  EXPECT_EQ(out.str(), testing::golden_or_update("console.txt", out.str()));
}

// A TLS target's run says so in the header line.
TEST(Console, ATlsTargetIsRunOverTlsInTheHeaderLine) {
  std::ostringstream out;
  render_console(testing::sample_tls_report(), out);
  EXPECT_THAT(out.str(), ::testing::StartsWith("loiter 0.1.0 against nginx-tls over TLS ("));
}

// An [h3] target's run says HTTP/3 (QUIC) in its header line, never "over TLS"; the default
// run's scenarios it cannot run are counted by protocol and family, their one reason said
// once, wrapped at 100 columns, not 30 ids on one line.
TEST(Console, AnH3TargetsLeftOutScenariosAreCountedByFamilyAndWrapped) {
  auto report = testing::sample_tls_report();
  report.target = "caddy-h3";
  report.target_protocol = "h3";
  const std::string why = "the target speaks HTTP/3 (its [h3]), and only the h3 family runs on it";
  const auto ids = [](std::size_t n) { return std::vector<std::string>(n, "x"); };
  report.left_out = {
      {.protocol = "HTTP/1.1",
       .why = why,
       .ids = ids(16),
       .families = {"header", "body", "keepalive", "abort", "not-cut", "send"}},
      {.protocol = "HTTP/1.1 over TLS", .why = why, .ids = ids(4), .families = {"tls"}},
      {.protocol = "HTTP/2", .why = why, .ids = ids(8), .families = {"h2"}},
      {.protocol = "HTTP/1.1 or HTTP/2",
       .why = why,
       .ids = {"slow-reader", "long-response", "stream"},
       .families = {"not-cut"}}};
  std::ostringstream out;
  render_console(report, out);
  const auto text = out.str();
  EXPECT_THAT(text, ::testing::StartsWith("loiter 0.1.0 against caddy-h3 over HTTP/3 (QUIC) ("));
  const auto from = text.find("not for this target");
  ASSERT_NE(from, std::string::npos) << text;
  const auto to = text.find("names them\n", from);
  ASSERT_NE(to, std::string::npos) << text;
  const auto lines = text.substr(from, to + 10 - from);
  std::string joined;  // the lines as one, their breaks and indents undone
  std::istringstream each(lines);
  for (std::string line; std::getline(each, line);) {  // bounded by the text
    EXPECT_LE(line.size(), 100u) << line;
    joined += (joined.empty() ? "" : " ") + line.substr(line.starts_with("  ") ? 2 : 0);
  }
  EXPECT_EQ(joined, "not for this target (" + why +
                        "): 16 HTTP/1.1 (header, body, keepalive, abort, not-cut, send), 4 "
                        "HTTP/1.1 over TLS (tls), 8 HTTP/2 (h2), 3 HTTP/1.1 or HTTP/2 scenarios "
                        "(slow-reader, long-response, stream); `loiter check --list` names them");
  EXPECT_GT(std::ranges::count(lines, '\n'), 0) << "not wrapped";
}

// A run against a server loiter did not start names it, and names the checks it did not
// make and why, each on a line of its own under the header.
TEST(Console, AConnectedRunNamesItsServerAndTheChecksNotMade) {
  std::ostringstream out;
  render_console(testing::sample_connected_report(), out);
  EXPECT_THAT(out.str(),
              ::testing::HasSubstr("\nagainst a server loiter did not start: 127.0.0.1:8443\n"));
  EXPECT_THAT(out.str(), ::testing::HasSubstr(
                             "\nnot made (no --pid: the server's process was not sampled): FDs "
                             "back to baseline (fds-not-recovered), no socket left in CLOSE_WAIT "
                             "(close-wait)\n"));
}

// A large figure in whole digits, a small one in decimals: never "1.71173e+06".
TEST(Console, FiguresNeverInScientificNotation) {
  RunReport report{.loiter_version = "0.1.0", .target = "nginx"};
  report.scenarios.push_back(
      {.id = "soak",
       .figures = {{.name = "RSS", .unit = "KiB", .values = {{"peak", 1711734.0}}},
                   {.name = "rate", .unit = "", .values = {{"lost", 0.0000123}}}}});
  std::ostringstream out;
  render_console(report, out);
  EXPECT_THAT(out.str(), ::testing::HasSubstr("RSS peak 1711734 KiB"));
  EXPECT_THAT(out.str(), ::testing::HasSubstr("rate lost 0.0000123"));
  EXPECT_THAT(out.str(), ::testing::Not(::testing::ContainsRegex("[0-9]e[+-][0-9]")));
}

TEST(Console, ColoursOnlyWhenAsked) {
  std::ostringstream plain, coloured;
  render_console(testing::sample_report(), plain);
  render_console(testing::sample_report(), coloured, {.color = true});
  EXPECT_EQ(plain.str().find('\x1b'), std::string::npos);
  EXPECT_THAT(coloured.str(), ::testing::HasSubstr("\x1b[32mPASS"));
}

}  // namespace
}  // namespace loiter::reports
