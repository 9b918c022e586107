// report.html is one self-contained page: every plot an inline <svg> with a stable id, all
// text escaped, nothing fetched, no script.
#include "loiter/reports/html.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "sample_report.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string page() {
  std::ostringstream out;
  render_html(testing::sample_report(), out);
  return out.str();
}

TEST(Html, DrawsEveryPlotAsAnSvgWithItsId) {
  const auto html = page();
  EXPECT_THAT(html, HasSubstr(R"(<svg id="plot-silent-fds")"));
  EXPECT_THAT(html, HasSubstr(R"(<svg id="plot-silent-closure")"));
  EXPECT_THAT(html, HasSubstr("<circle"));
  EXPECT_THAT(html, HasSubstr(">baseline</text>"));
}

// A fitted line is drawn straight and dashed in a step plot, in the colour of the line it fits
// (the series before it), its legend swatch a dashed stroke.
TEST(Html, DrawsAFittedLineDashedWithItsSlopeInTheLegend) {
  const auto html = page();
  EXPECT_THAT(
      html, HasSubstr(R"(stroke="#1f77b4" stroke-width="1.6" stroke-dasharray="6 3" class="fit")"));
  EXPECT_THAT(html, HasSubstr(">FDs -20.0/min</text>"));
}

TEST(Html, EscapesEveryText) {
  const auto html = page();
  EXPECT_THAT(html, HasSubstr("closure &lt;time&gt; &amp; &quot;ending&quot;"));
  EXPECT_THAT(html, Not(HasSubstr("<time>")));
  EXPECT_EQ(escape_html(R"(<a href='x'>&</a>)"), "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
  // The page is UTF-8: a line break stays one, bad bytes and control characters do not.
  EXPECT_EQ(escape_html("a\nb\tc"), "a\nb\tc");
  EXPECT_EQ(escape_html("caf\xC3\xA9 bad\xC3 \x01"), "caf\xC3\xA9 bad\xEF\xBF\xBD \xEF\xBF\xBD");
}

TEST(Html, FetchesNothingAndRunsNoScript) {
  const auto html = page();
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("href=\"http")));
}

TEST(Html, SvgIdsKeepOnlySafeCharacters) {
  EXPECT_EQ(svg_id("Idle Under/Load", "fds"), "plot-idle-under-load-fds");
}

// Each finding shows its sentence under a label and CSS class of its class.
TEST(Html, ShowsFindingsWithTheirClassAndSkipReasons) {
  const auto html = page();
  EXPECT_THAT(html, HasSubstr(R"(<li class="finding-deadline"><span class="finding-class">)"
                              R"(deadline</span> 100/100 connections still open)"));
  EXPECT_THAT(html, HasSubstr("the target declares no stream path"));
}

// The page names the target's version and description under its title.
TEST(Html, ShowsTheTargetsVersionAndDescription) {
  const auto html = page();
  EXPECT_THAT(html, HasSubstr("<p>reference 0.1.0</p>"));
  EXPECT_THAT(html, HasSubstr("<p>the bundled reference server, 1 s deadlines</p>"));
}

// A TLS target's page says so in its title and shows its TLS declaration; a cleartext one's
// shows none.
TEST(Html, ShowsATlsTargetsDeclaration) {
  std::ostringstream out;
  render_html(testing::sample_tls_report(), out);
  EXPECT_THAT(out.str(), HasSubstr("<h1>loiter 0.1.0 against nginx-tls over TLS ("));
  EXPECT_THAT(out.str(), HasSubstr("<p>TLS: ALPN http/1.1, SNI none, handshake deadline none, "
                                   "header deadline from connect</p>"));
  EXPECT_THAT(page(), Not(HasSubstr("TLS: ALPN")));
}

// The page opens with what failed and why: each failed scenario linked to its section, with
// its findings, before the summary table; the scenarios another protocol's target would run
// are named in one line.
TEST(Html, OpensWithWhatFailedAndWhy) {
  const auto html = page();
  const auto failed = html.find("<section id=\"failed\">");
  ASSERT_NE(failed, std::string::npos);
  EXPECT_LT(failed, html.find("<table>"));
  EXPECT_THAT(html, HasSubstr(R"(<h3><a href="#s-silent-again">silent-again</a>)"));
  const auto finding = html.find("100/100 connections still open", failed);
  EXPECT_LT(finding, html.find("<table>"));
  EXPECT_THAT(html, HasSubstr("not for this target: 2 HTTP/1.1 over TLS scenarios "
                              "(tls-half-hello, tls-handshake-silent): the target does not speak "
                              "TLS (no [tls] in its target file); 1 HTTP/2 scenario (h2-idle)"));
}

TEST(Html, SaysNothingFailedWhenNothingDid) {
  auto report = testing::sample_report();
  std::erase_if(report.scenarios, [](const ScenarioReport& s) { return s.status == Status::fail; });
  std::ostringstream out;
  render_html(report, out);
  EXPECT_THAT(out.str(), HasSubstr("Nothing failed."));
  EXPECT_THAT(out.str(), Not(HasSubstr("id=\"failed\"")));
}

}  // namespace
}  // namespace loiter::reports
