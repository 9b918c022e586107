// draft_target() of a survey over HTTP/3: [h3]'s keys alone, a bracket drafted from its
// earliest "gone" (or the max_idle_timeout advertised within it), the 408 answers as booleans.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "canned_survey.hpp"
#include "loiter/reports/survey_target.hpp"

namespace loiter::reports {
namespace survey_target_h3_test {

using ::testing::HasSubstr;
using ::testing::Not;

// A bracket: still held at `held` s, gone at `gone` s.
SurveyMeasure bracket(std::string id, double held, double gone) {
  auto m = canned::timed(std::move(id), "bracketed", (held + gone) / 2, "gone");
  m.seconds = Spread{.min = held, .median = (held + gone) / 2, .max = gone};
  return m;
}

Survey h3_survey() {
  auto survey = canned::empty_survey(SurveyProtocol::h3);
  survey.measures.push_back(bracket("h3-handshake", 9.81, 10.04));
  auto idle = bracket("h3-idle", 29.7, 30.2);
  idle.advertised = 30;
  survey.measures.push_back(idle);
  survey.measures.push_back(canned::timed("h3-header", "header", 2.01, "408+rst-stream"));
  survey.measures.push_back(canned::timed("h3-body", "body", 3.3, "rst-stream"));
  survey.measures.push_back(canned::timed("h3-send", "send", std::nullopt));
  survey.measures.push_back(canned::timed("h3-control-close", "control", 0.02, "close"));
  return survey;
}

DraftHead connect_head() {
  return {.date = "2026-12-07", .name = "mine", .server_name = "localhost"};
}

TEST(SurveyTargetH3, ConnectOnlyFileHoldsTheH3TableAlone) {
  const auto draft = draft_target(h3_survey(), connect_head());
  EXPECT_THAT(draft, HasSubstr("h3): the measured keys of [h3]\n# hold"));
  EXPECT_THAT(draft, Not(HasSubstr("[deadlines]")));
  EXPECT_THAT(draft, Not(HasSubstr("[promises]")));
  EXPECT_THAT(draft, HasSubstr("\n[h3]\nserver_name = \"localhost\"\n"));
  EXPECT_THAT(draft, HasSubstr("still held at 9.81 s, gone at 10.04 s; a promise only"));
  EXPECT_THAT(draft, HasSubstr("\nhandshake = 10\n"));  // within 0.1 s of the whole second
  EXPECT_THAT(draft, HasSubstr("\nidle_advertised = 30\n"));
  EXPECT_THAT(draft, HasSubstr("\nidle = 30\n"));  // the advertised timeout lies in the bracket
  EXPECT_THAT(draft, HasSubstr("\nheader = 2\n"));
  EXPECT_THAT(draft, HasSubstr("\nbody = 3.3\n"));
  EXPECT_THAT(draft, HasSubstr("# send: none within 120 s"));
  EXPECT_THAT(draft, HasSubstr("ended 408+rst-stream; a promise only once your configuration "
                               "says so\nheader_408 = true\n"));
  EXPECT_THAT(draft, HasSubstr("\nbody_408 = false\n"));
}

TEST(SurveyTargetH3, ABracketIsDraftedFromItsEarliestGoneRoundedUp) {
  auto survey = h3_survey();
  survey.measures[0].seconds = Spread{.min = 1.93, .median = 2.035, .max = 2.14};
  survey.measures[1].advertised = 0;  // no idle timeout advertised: the bracket decides
  survey.measures[1].seconds = Spread{.min = 4.61, .median = 4.7, .max = 4.79};
  const auto draft = draft_target(survey, connect_head());
  EXPECT_THAT(draft, HasSubstr("\nhandshake = 2.15\n"));
  EXPECT_THAT(draft, HasSubstr("\nidle = 4.8\n"));
  survey.measures[0].seconds = Spread{.min = 5.0, .median = 5.125, .max = 5.2504};
  EXPECT_THAT(draft_target(survey, connect_head()), HasSubstr("\nhandshake = 5.25\n"));
  EXPECT_THAT(draft, HasSubstr("# idle_advertised: measured 2026-12-07 (h3-idle): the server "
                               "advertised max_idle_timeout 0"));
}

TEST(SurveyTargetH3, AFileKeepsItsOtherTablesAndReplacesH3Keys) {
  const std::string text = R"(command = ["x", "{port}", "{h3.idle}"]
[h3]
server_name = "example"
header = 5  # old

[promises]
load_p99 = 0.2
)";
  const auto draft =
      draft_target(h3_survey(), {.date = "2026-12-07", .source = "mine.toml", .original = text});
  EXPECT_THAT(draft, HasSubstr("[h3]\nserver_name = \"example\"\n# measured 2026-12-07 (h3-header)"));
  EXPECT_THAT(draft, HasSubstr("\nheader = 2\n"));
  EXPECT_THAT(draft, Not(HasSubstr("# old")));
  EXPECT_THAT(draft, HasSubstr("\n[promises]\nload_p99 = 0.2\n"));  // as it was
  EXPECT_THAT(draft, Not(HasSubstr("[deadlines]")));
  // A file without [h3] gets one at its end.
  const auto added = draft_target(
      h3_survey(), {.date = "2026-12-07", .source = "mine.toml", .original = "command = [\"x\"]\n"});
  EXPECT_THAT(added, HasSubstr("command = [\"x\"]\n\n[h3]\n# measured"));
}

}  // namespace survey_target_h3_test
}  // namespace loiter::reports
