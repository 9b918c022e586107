// ladder.html is one self-contained page: the three plots (rate steps per side, p99 against
// the bound, saturation), the step tables with each limit, the knee, a comparison's paired
// figures with worse in red and better in green; all text escaped, no script, nothing fetched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "html_checks.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "sample_ladder.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string ladder_page(const Ladder& ladder) {
  std::ostringstream out;
  render_html(ladder, out);
  return out.str();
}

// The <svg> element with this id, whole.
std::string svg_of(const std::string& html, const std::string& id) {
  const auto open = html.find("<svg id=\"" + id + "\"");
  if (open == std::string::npos) return "";
  return html.substr(open, html.find("</svg>", open) + 6 - open);
}

TEST(LadderHtml, DrawsTheThreePlots) {
  const auto html = ladder_page(testing::sample_ladder());
  const auto rates = svg_of(html, "plot-ladder-rates-target");
  const auto p99 = svg_of(html, "plot-ladder-p99");
  const auto saturation = svg_of(html, "plot-ladder-saturation");
  // Requested, dispatched and 2xx as lines; the client-limited step and the knee marked.
  EXPECT_THAT(rates, HasSubstr(">requested</text>"));
  EXPECT_THAT(rates, HasSubstr(">dispatched</text>"));
  EXPECT_THAT(rates, HasSubstr(">2xx</text>"));
  EXPECT_THAT(rates, HasSubstr(">client limit 50,000/s</text>"));
  EXPECT_THAT(rates, HasSubstr(">client-limited</text>"));
  EXPECT_THAT(rates, HasSubstr("<circle"));  // the limited step's point
  EXPECT_THAT(rates, HasSubstr(">knee 20,000/s</text>"));
  EXPECT_THAT(rates, HasSubstr("<path d=\"M"));
  // The bound a line across the p99 plot.
  EXPECT_THAT(p99, HasSubstr(">p99 bound 200 ms</text>"));
  EXPECT_THAT(p99, HasSubstr("stroke-dasharray=\"5 3\""));
  // One saturation step: a dot, not an empty plot.
  EXPECT_THAT(saturation, HasSubstr("<circle"));
  EXPECT_THAT(saturation, Not(HasSubstr("no data")));
  EXPECT_THAT(html, Not(::testing::ContainsRegex("[0-9]e[+-][0-9]")));
}

// A comparison overlays both sides on p99 and saturation, and draws each side's rate steps.
TEST(LadderHtml, AComparisonOverlaysBothSides) {
  const auto html = ladder_page(testing::sample_comparison());
  EXPECT_THAT(svg_of(html, "plot-ladder-rates-baseline"), Not(::testing::IsEmpty()));
  EXPECT_THAT(svg_of(html, "plot-ladder-rates-candidate"), Not(::testing::IsEmpty()));
  const auto p99 = svg_of(html, "plot-ladder-p99");
  EXPECT_THAT(p99, HasSubstr(">baseline p99</text>"));
  EXPECT_THAT(p99, HasSubstr(">candidate p99</text>"));
  // A bound of 200 ms over p99s of 2 ms would flatten them: named, not drawn.
  EXPECT_THAT(p99, HasSubstr("(the 200 ms bound is off the scale)"));
  EXPECT_THAT(p99, Not(HasSubstr(">p99 bound 200 ms</text>")));
  // No step was client-limited: no such series.
  EXPECT_THAT(html, Not(HasSubstr(">client-limited</text>")));
  const auto saturation = svg_of(html, "plot-ladder-saturation");
  EXPECT_THAT(saturation, HasSubstr(">baseline 2xx/s</text>"));
  EXPECT_THAT(saturation, HasSubstr(">candidate 2xx/s</text>"));
}

TEST(LadderHtml, TablesSayEachLimitAndTheKnee) {
  const auto html = ladder_page(testing::sample_ladder());
  EXPECT_THAT(html, HasSubstr("<tr class=\"step client\"><td>50,000/s</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"client-limit\">client limit</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"within\">within</td>"));
  EXPECT_THAT(html, HasSubstr("dispatched 41,200/s of 50,000/s with its load thread busy"));
  EXPECT_THAT(html, HasSubstr("<p class=\"knee\">knee: 20,000/s (p99 within 200 ms"));
  EXPECT_THAT(html, HasSubstr("<td>64 connections</td>"));
  EXPECT_THAT(html, HasSubstr("every trial"));
  EXPECT_THAT(html, HasSubstr("12 (reset 3, timeout 9)"));
  EXPECT_THAT(html, Not(HasSubstr("id=\"comparison\"")));
}

// Worse is red and better green, each by its row's class; the summary says worse first.
TEST(LadderHtml, HighlightsTheVerdicts) {
  const auto html = ladder_page(testing::sample_comparison());
  EXPECT_THAT(html, HasSubstr("<tr class=\"figure worse\"><td>5000/s</td><td>p99</td>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"figure better\"><td>64 connections</td>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"figure no-difference\">"));
  EXPECT_THAT(html, HasSubstr("tr.worse .verdict{color:#c62828"));
  EXPECT_THAT(html, HasSubstr("tr.better .verdict{color:#1a7f37"));
  EXPECT_THAT(html, HasSubstr("<p class=\"worse\"><a href=\"#comparison\">the candidate is "
                              "worse on 1 of 4 figures</a></p>"));
  EXPECT_THAT(html, HasSubstr("+21.0%, +18.3%, +25.5%, +30.0%, +15.2%"));
  auto fine = testing::sample_comparison();
  fine.comparison[0].verdict = PairedVerdict::no_difference;
  EXPECT_THAT(ladder_page(fine), HasSubstr("<p class=\"fine\"><a href=\"#comparison\">"));
}

TEST(LadderHtml, EscapesEveryText) {
  auto ladder = testing::sample_comparison();
  ladder.sides[0].target = "<nginx & co>";
  ladder.sides[1].command = {"srv", "--name=<b>"};
  ladder.sides[0].steps[0].note = "a \"quoted\" <note>";
  ladder.comparison[0].figure = "<p99>";
  ladder.problems = {"<b>oops</b>"};
  const auto html = ladder_page(ladder);
  testing::expect_escaped(html,
                          {"&lt;nginx &amp; co&gt;", "a &quot;quoted&quot; &lt;note&gt;",
                           "&lt;p99&gt;", "&lt;b&gt;oops&lt;/b&gt;", "--name=&lt;b&gt;"},
                          {"<nginx", "<note>", "<p99>", "<b>"});
}

TEST(LadderHtml, FetchesNothingAndRunsNoScript) {
  const auto html = ladder_page(testing::sample_comparison());
  testing::expect_self_contained(html);
  EXPECT_THAT(html, HasSubstr("interrupted: partial"));
}

}  // namespace
}  // namespace loiter::reports
