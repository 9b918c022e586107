// The console summary matches its golden file line by line; colours only when asked.
#include "loiter/reports/console.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

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
