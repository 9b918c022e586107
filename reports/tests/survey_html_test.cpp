// survey.html is one self-contained page: the exposures first, every measure's row by its
// id, a strip per measured time, all text escaped, no script, nothing fetched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "html_checks.hpp"
#include "loiter/reports/survey_render.hpp"
#include "sample_survey.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string survey_page(const Survey& survey = testing::sample_survey()) {
  std::ostringstream out;
  render_html(survey, out);
  return out.str();
}

TEST(SurveyHtml, HasARowForEveryMeasureById) {
  const auto html = survey_page();
  for (const auto& m : testing::sample_survey().measures) {
    EXPECT_THAT(html, HasSubstr(R"(<tr id="m-)" + m.id + R"(")")) << m.id;
    EXPECT_THAT(html, HasSubstr("<code>" + m.id + "</code>")) << m.id;
  }
  EXPECT_THAT(html, HasSubstr("not measured: the target does not speak HTTP/2"));
}

// The page opens with what the server lets a client hold, each linking to its row, which is
// highlighted.
TEST(SurveyHtml, OpensWithTheExposuresAndHighlightsTheirRows) {
  const auto html = survey_page();
  const auto exposures = html.find("What this server lets a client hold");
  ASSERT_NE(exposures, std::string::npos);
  EXPECT_LT(exposures, html.find("<table>"));
  EXPECT_THAT(html, HasSubstr(R"(<a href="#m-header-bytes">)"));
  EXPECT_THAT(html, HasSubstr(R"(<tr id="m-header-bytes" class="measure exposed">)"));
  EXPECT_THAT(html, HasSubstr(R"(<tr id="m-header-silent" class="measure">)"));
  auto calm = testing::sample_survey();
  for (auto& m : calm.measures) m.exposure.clear();
  EXPECT_THAT(survey_page(calm), Not(HasSubstr("What this server lets a client hold")));
}

// A measured time gets a strip of three dots; connections still open get a bar; a measure
// not measured gets none.
TEST(SurveyHtml, DrawsAStripPerMeasure) {
  const auto html = survey_page();
  EXPECT_THAT(html, HasSubstr(R"(<svg id="plot-survey-header-silent" class="strip")"));
  EXPECT_THAT(html, HasSubstr(R"(class="median"/>)"));
  EXPECT_THAT(html, HasSubstr(R"(<svg id="plot-survey-header-bytes" class="strip")"));
  EXPECT_THAT(html, HasSubstr(R"(class="open"/>)"));
  EXPECT_THAT(html, Not(HasSubstr("plot-survey-h2-preface")));
  EXPECT_THAT(html, Not(::testing::ContainsRegex("[0-9]e[+-][0-9]")));
}

TEST(SurveyHtml, EscapesEveryText) {
  auto survey = testing::sample_survey();
  survey.target = "<nginx & co>";
  survey.measures[0].title = "a \"silent\" <connection>";
  survey.measures[2].exposure = "holds <all> & more";
  survey.problems = {"<b>oops</b>"};
  const auto html = survey_page(survey);
  testing::expect_escaped(html,
                          {"&lt;nginx &amp; co&gt;", "a &quot;silent&quot; &lt;connection&gt;",
                           "holds &lt;all&gt; &amp; more", "&lt;b&gt;oops&lt;/b&gt;"},
                          {"<connection>", "<all>"});
}

TEST(SurveyHtml, FetchesNothingAndRunsNoScript) {
  const auto html = survey_page();
  testing::expect_self_contained(html);
}

TEST(SurveyHtml, ShowsProblemsAndAnInterruption) {
  const auto html = survey_page();
  EXPECT_THAT(html, HasSubstr("header-lines: 1 connection could not connect"));
  EXPECT_THAT(html, HasSubstr("interrupted: partial"));
}

}  // namespace
}  // namespace loiter::reports
