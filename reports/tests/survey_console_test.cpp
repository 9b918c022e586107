// The survey's console table matches its golden file line by line; columns are aligned and
// nothing is coloured.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "golden.hpp"
#include "loiter/reports/survey_render.hpp"
#include "sample_survey.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;

std::string console(const Survey& survey) {
  std::ostringstream out;
  render_console(survey, out);
  return out.str();
}

TEST(SurveyConsole, TableMatchesGolden) {
  const auto text = console(testing::sample_survey());
  EXPECT_EQ(text, testing::golden_or_update("survey_console.txt", text));
}

// Every row's time starts in the same column as the heading's, and no line ends in spaces.
TEST(SurveyConsole, ColumnsAreAlignedWithoutTrailingSpaces) {
  std::istringstream in(console(testing::sample_survey()));
  std::string line;
  std::size_t column = std::string::npos;
  while (std::getline(in, line)) {
    EXPECT_FALSE(!line.empty() && line.back() == ' ') << line;
    if (line.starts_with("behaviour")) column = line.find("time");
    if (line.starts_with("a silent connection")) {
      EXPECT_EQ(line.find("2.00 s from"), column);
    }
    if (line.starts_with("a body stopped")) {
      EXPECT_EQ(line.find("60.00 s from"), column);
    }
  }
  EXPECT_NE(column, std::string::npos);
}

// A header line, a time or its absence, a reason where nothing was measured; no colour.
TEST(SurveyConsole, SaysWhatEachRowMeans) {
  const auto text = console(testing::sample_survey());
  EXPECT_THAT(text, ::testing::StartsWith("loiter 0.1.0 survey of nginx-tls at 127.0.0.1:8443 "
                                          "over HTTP/1.1 over TLS"));
  EXPECT_THAT(text, HasSubstr("5 connections per probe, max wait 120 s"));
  EXPECT_THAT(text, HasSubstr("none within 120 s"));
  EXPECT_THAT(text, HasSubstr("not measured: the target does not speak HTTP/2"));
  EXPECT_THAT(text, HasSubstr("endings: 408+close 4, reset 1"));
  EXPECT_THAT(text, HasSubstr("interrupted: partial"));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

// A running server named by its address (--connect, no target file) is named once.
TEST(SurveyConsole, NamesAnEndpointThatIsTheTargetOnce) {
  auto survey = testing::sample_survey();
  survey.target = survey.endpoint;
  EXPECT_THAT(console(survey), ::testing::StartsWith("loiter 0.1.0 survey of 127.0.0.1:8443 over "
                                                     "HTTP/1.1 over TLS ("));
  std::ostringstream page;
  render_html(survey, page);
  EXPECT_THAT(page.str(),
              HasSubstr("loiter 0.1.0 survey of 127.0.0.1:8443 over HTTP/1.1 over TLS"));
  EXPECT_THAT(page.str(), Not(HasSubstr("127.0.0.1:8443 at 127.0.0.1:8443")));
}

// Over HTTP/3: the protocol named, a bracket's note and the idle timeout advertised shown.
TEST(SurveyConsole, OverHttp3ShowsTheAdvertisedIdleTimeout) {
  Survey survey{.target = "caddy-h3", .endpoint = "127.0.0.1:8443", .protocol = SurveyProtocol::h3};
  survey.measures.push_back({.id = "h3-idle",
                             .title = "a QUIC connection left quiet after its handshake",
                             .connections = 3,
                             .agreed = 3,
                             .seconds = Spread{.min = 29.8, .median = 30.2, .max = 30.6},
                             .ending = {.way = SurveyEnding::Way::gone},
                             .advertised = 30,
                             .note = "still held at 29.80 s, gone at 30.60 s"});
  const auto text = console(survey);
  EXPECT_THAT(text, HasSubstr("survey of caddy-h3 at 127.0.0.1:8443 over HTTP/3 over QUIC"));
  EXPECT_THAT(text, HasSubstr("max_idle_timeout advertised: 30 s"));
  EXPECT_THAT(text, HasSubstr("still held at 29.80 s, gone at 30.60 s"));
  survey.measures[0].advertised = 0;
  EXPECT_THAT(console(survey), HasSubstr("max_idle_timeout advertised: 0 (no idle timeout)"));
}

// A survey with nothing measured and nothing wrong still prints its header, and no problems.
TEST(SurveyConsole, AnEmptySurveySaysSo) {
  const auto text = console(Survey{.target = "x"});
  EXPECT_THAT(text, HasSubstr("no measures"));
  EXPECT_THAT(text, Not(HasSubstr("problems")));
  EXPECT_THAT(text, Not(HasSubstr("interrupted")));
}

}  // namespace
}  // namespace loiter::reports
