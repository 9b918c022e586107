// denial.html is one self-contained page: per kind a pair of plots against the held
// connections (2xx share with the attacker's reopens/s on a right axis, p99 with its bytes/s),
// both sides overlaid in a comparison; the step tables and knees; a lower knee in red; every
// text escaped, no script, nothing fetched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "html_checks.hpp"
#include "loiter/reports/denial_render.hpp"
#include "sample_denial.hpp"

namespace loiter::reports {
// Named, not anonymous: the unity batch shares one anonymous namespace among the test files.
namespace denial_html_test {

using ::testing::HasSubstr;
using ::testing::Not;

std::string denial_page(const Denial& denial) {
  std::ostringstream out;
  render_html(denial, out);
  return out.str();
}

// The <svg> element with this id, whole; "" when there is none.
std::string svg_with_id(const std::string& html, const std::string& id) {
  const auto open = html.find("<svg id=\"" + id + "\"");
  if (open == std::string::npos) return "";
  return html.substr(open, html.find("</svg>", open) + 6 - open);
}

TEST(DenialHtml, DrawsAPlotPairPerKindWithARightAxis) {
  const auto html = denial_page(testing::sample_denial());
  for (const auto* kind : {"silent", "header-trickle"}) {
    const auto share = svg_with_id(html, std::string("plot-denial-share-") + kind);
    const auto p99 = svg_with_id(html, std::string("plot-denial-p99-") + kind);
    ASSERT_FALSE(share.empty()) << kind;
    ASSERT_FALSE(p99.empty()) << kind;
    EXPECT_THAT(share, HasSubstr(">2xx share</text>"));
    EXPECT_THAT(share, HasSubstr(">reopens/s (right)</text>"));
    EXPECT_THAT(share, HasSubstr(">2xx share (%)</text>"));
    EXPECT_THAT(share, HasSubstr(">held connections</text>"));
    EXPECT_THAT(share, HasSubstr("class=\"yr\""));  // the right axis's ticks
    EXPECT_THAT(share, HasSubstr(">least 99%</text>"));
    EXPECT_THAT(p99, HasSubstr(">bytes/s (right)</text>"));
    EXPECT_THAT(p99, HasSubstr("rotate(90 "));  // the right axis's unit
    EXPECT_THAT(p99, HasSubstr(">attacker bytes/s</text>"));
  }
  const auto silent = svg_with_id(html, "plot-denial-share-silent");
  EXPECT_THAT(silent, HasSubstr(">knee 500</text>"));
  // The control step starts each series at 0 held, on the frame's left edge (x 56).
  EXPECT_THAT(silent, HasSubstr("<path d=\"M56.0,"));
  EXPECT_THAT(silent, HasSubstr("class=\"xt\">0</text>"));
  EXPECT_THAT(silent, HasSubstr("<path d=\"M"));
  EXPECT_THAT(svg_with_id(html, "plot-denial-share-header-trickle"), Not(HasSubstr(">knee")));
  // The silent p99 reached 812 ms: the 200 ms bound is drawn.
  EXPECT_THAT(svg_with_id(html, "plot-denial-p99-silent"), HasSubstr(">p99 bound 200 ms</text>"));
  // header-trickle's p99 stayed under 4 ms: the bound is named, not drawn.
  EXPECT_THAT(svg_with_id(html, "plot-denial-p99-header-trickle"),
              HasSubstr("(the 200 ms bound is off the scale)"));
  EXPECT_THAT(html, Not(::testing::ContainsRegex("[0-9]e[+-][0-9]")));
}

TEST(DenialHtml, AComparisonOverlaysBothSidesPerKind) {
  const auto html = denial_page(testing::sample_denial_comparison());
  for (const auto* kind : {"silent", "slow-reader", "idle-keepalive"}) {
    const auto share = svg_with_id(html, std::string("plot-denial-share-") + kind);
    EXPECT_THAT(share, HasSubstr(">baseline 2xx share</text>")) << kind;
    EXPECT_THAT(share, HasSubstr(">candidate 2xx share</text>")) << kind;
    EXPECT_THAT(share, HasSubstr(">baseline reopens/s (right)</text>")) << kind;
    EXPECT_THAT(share, HasSubstr(">candidate reopens/s (right)</text>")) << kind;
  }
  const auto silent = svg_with_id(html, "plot-denial-share-silent");
  EXPECT_THAT(silent, HasSubstr(">baseline knee 500</text>"));
  EXPECT_THAT(silent, HasSubstr(">candidate knee 250</text>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"kind lower\"><td>silent</td><td class=\"n\">500</td>"
                              "<td class=\"n\">250</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"n\">&gt; 1,000</td>"));
  EXPECT_THAT(html, HasSubstr("<p class=\"lower\"><a href=\"#comparison\">the candidate is "
                              "denied sooner on 1 of 3 kinds</a></p>"));
  EXPECT_THAT(html, HasSubstr("interrupted: partial"));
}

TEST(DenialHtml, TablesSayEachStepAndTheKnees) {
  const auto html = denial_page(testing::sample_denial());
  EXPECT_THAT(html, HasSubstr("<li>denied at 500 silent (accept-queue: accept queue "
                              "128/128)</li>"));
  EXPECT_THAT(html, HasSubstr("<li>not denied up to 10,000 header-trickle</li>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"step denied\"><td class=\"n\">500</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"denied\">denied</td></tr>\n<tr class=\"detail\">"
                              "<td></td><td colspan=\"16\" class=\"note\">denied: 2xx 41.0% "
                              "&lt; 99%; accept-queue: accept queue 128/128; errors: connect "
                              "5,870, timeout 30</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"served\">served</td></tr>\n<tr class=\"step\">"));
  EXPECT_THAT(html, HasSubstr("4,100 (41.0%)"));
  EXPECT_THAT(html, HasSubstr("11/10,014/?"));
  EXPECT_THAT(html, HasSubstr("<p class=\"control\">control, the regular traffic alone: 2xx "
                              "100.0%, p99 1.1 ms, errors 0;"));  // a descriptor limit not read
  EXPECT_THAT(html, HasSubstr("step 3: the server took 2.1 s to start"));
  EXPECT_THAT(html, Not(HasSubstr("id=\"comparison\"")));
}

TEST(DenialHtml, EscapesEveryText) {
  auto denial = testing::sample_denial_comparison();
  denial.sides[0].target = "<nginx & co>";
  denial.sides[1].command = {"srv", "--name=<b>"};
  denial.sides[0].kinds[0].kind = "<silent>";
  denial.sides[0].kinds[0].steps[1].cause_note = "a \"quoted\" <note>";
  denial.comparison[0].kind = "<silent>";
  denial.problems = {"<b>oops</b>"};
  const auto html = denial_page(denial);
  testing::expect_escaped(html,
                          {"&lt;nginx &amp; co&gt;", "a &quot;quoted&quot; &lt;note&gt;",
                           "&lt;silent&gt;", "&lt;b&gt;oops&lt;/b&gt;", "--name=&lt;b&gt;"},
                          {"<nginx", "<note>", "<silent>", "<b>"});
}

TEST(DenialHtml, FetchesNothingAndRunsNoScript) {
  testing::expect_self_contained(denial_page(testing::sample_denial()));
  testing::expect_self_contained(denial_page(testing::sample_denial_comparison()));
}

// A step where nothing was answered has no p99: its plot draws no point there (rather than a
// p99 of 0 ms, which would read as the best step of all).
TEST(DenialHtml, AStepWithNothingAnsweredHasNoP99Point) {
  Denial denial{.p99_bound_ms = 200};
  DenialSide side{.role = "target", .target = "mine", .protocol = "http1"};
  side.control = DenialStep{.requested = 100, .succeeded = 100, .p99_ms = 2};
  side.kinds.push_back({.kind = "silent",
                        .steps = {{.held = 10, .requested = 100, .succeeded = 100, .p99_ms = 3},
                                  {.held = 20, .requested = 100, .succeeded = 0, .p99_ms = 0}}});
  denial.sides.push_back(side);
  const auto p99 = svg_with_id(denial_page(denial), "plot-denial-p99-silent");
  const auto path = p99.find("<path d=\"M");
  ASSERT_NE(path, std::string::npos) << p99;
  const auto d = p99.substr(path, p99.find('"', path + 9) - path);
  EXPECT_EQ(std::ranges::count(d, 'L'), 1) << d;  // the control and 10 held, not 20
}

}  // namespace denial_html_test
}  // namespace loiter::reports
