// A survey's ending and where its deadline runs from are read from their words in survey.json
// and written back as the same words; a word neither can be is refused, with the words they
// may be.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <stdexcept>
#include <string>

#include "loiter/reports/survey.hpp"
#include "loiter/reports/survey_json.hpp"
#include "sample_survey.hpp"

namespace loiter::reports {
namespace survey_words_test {  // named: unity batches put other tests' helpers beside these

using ::testing::HasSubstr;
using Way = SurveyEnding::Way;
using Origin = RunsFrom::Origin;

// Matches reading a document that throws a runtime_error saying `message`.
auto refused_with(const std::string& message) {
  return ::testing::ThrowsMessage<std::runtime_error>(HasSubstr(message));
}

TEST(SurveyWords, ReadsEveryEndingAndWritesItTheSame) {
  for (const std::string word :
       {"", "close", "reset", "alert", "gone", "408+close", "408+reset", "400+close", "200+reset",
        "goaway+close", "goaway+reset", "goaway", "rst-stream", "408+rst-stream", "answered", "open",
        "connect-failed", "client-abort", "client-close"}) {
    const auto ending = survey_ending_of(word);
    ASSERT_TRUE(ending) << word;
    EXPECT_EQ(to_string(*ending), word);
  }
  EXPECT_EQ(survey_ending_of("408+close"), (SurveyEnding{.way = Way::close, .status = 408}));
  EXPECT_EQ(survey_ending_of("goaway+reset"),
            (SurveyEnding{.way = Way::reset, .after_goaway = true}));
  EXPECT_EQ(survey_ending_of("client-abort"), SurveyEnding{.way = Way::client_abort});
  EXPECT_EQ(survey_ending_of("408+rst-stream"),
            (SurveyEnding{.way = Way::rst_stream, .status = 408}));
}

// Only a server's ending has a status or a GOAWAY before it, and each is written one way.
TEST(SurveyWords, RefusesAWordNoEndingHas) {
  for (const std::string word : {"closed", "408", "408+open", "408+answered", "goaway+goaway",
                                 "+close", "0408+close", "0+close", "x+close", "close+408",
                                 "goaway+rst-stream", "0408+rst-stream"}) {
    EXPECT_FALSE(survey_ending_of(word)) << word;
  }
}

TEST(SurveyWords, ATimeoutAnswerIsA408OrACloseThenACloseOrAReset) {
  EXPECT_EQ(answer_of(*survey_ending_of("408+close")), TimeoutAnswer::respond_408);
  EXPECT_EQ(answer_of(*survey_ending_of("408+reset")), TimeoutAnswer::respond_408);
  EXPECT_EQ(answer_of(*survey_ending_of("close")), TimeoutAnswer::close);
  EXPECT_EQ(answer_of(*survey_ending_of("reset")), TimeoutAnswer::close);
  for (const std::string word :
       {"400+close", "goaway+close", "alert", "open", "answered", "408+rst-stream", ""}) {
    EXPECT_EQ(answer_of(*survey_ending_of(word)), TimeoutAnswer::none) << word;
  }
  EXPECT_EQ(to_string(TimeoutAnswer::respond_408), "408");
  EXPECT_EQ(to_string(TimeoutAnswer::close), "close");
}

// Where a deadline runs from, or an HTTP/2 server's GOAWAY code as loiter names it.
TEST(SurveyWords, ReadsEveryOriginAndAGoawaysCode) {
  for (const std::string word : {"", "connect", "last-response", "first-byte", "handshake", "never",
                                 "other", "none", "NO_ERROR", "ENHANCE_YOUR_CALM", "error 0x1f"}) {
    const auto runs_from = runs_from_of(word);
    ASSERT_TRUE(runs_from) << word;
    EXPECT_EQ(to_string(*runs_from), word);
  }
  EXPECT_EQ(runs_from_of("none"), RunsFrom{.origin = Origin::no_goaway});
  EXPECT_EQ(runs_from_of("NO_ERROR"),
            (RunsFrom{.origin = Origin::goaway, .goaway_code = "NO_ERROR"}));
  for (const std::string word : {"from-connect", "Connect", "no_error", "error 0x", "error 0xZZ"}) {
    EXPECT_FALSE(runs_from_of(word)) << word;
  }
}

// survey.json refuses a word neither can be, with where it is and the words they may be.
TEST(SurveyWords, SurveyJsonNamesAnUnknownWordAndTheWordsItMayBe) {
  auto document = to_json(testing::sample_survey());
  document.at("measures").at(0).as_object()["ending"] = "closed";
  EXPECT_THAT([&] { survey_from_json(document); },
              refused_with("survey: measures[0]: key 'ending' is 'closed', not one of 'close', "
                           "'reset', 'alert' or 'gone' (after a status or 'goaway' and '+': "
                           "'408+close'), 'goaway', 'rst-stream' (after a status and '+': "
                           "'408+rst-stream'), 'answered', 'open'"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(4).at("endings").at(1).as_object()["ending"] = 408;
  EXPECT_THAT([&] { survey_from_json(document); },
              refused_with("survey: measures[4].endings[1]: key 'ending' must be a word"));
  document = to_json(testing::sample_survey());
  document.at("measures").at(5).as_object()["runs_from"] = "from-connect";
  EXPECT_THAT([&] { survey_from_json(document); },
              refused_with("survey: measures[5]: key 'runs_from' is 'from-connect', not one of "
                           "'connect', 'last-response', 'first-byte', 'handshake', 'never', "
                           "'other', 'none', a GOAWAY code's name ('NO_ERROR') or ''"));
}

// Each form is read back to the value it was written from.
TEST(SurveyWords, SurveyJsonRoundTripsEachForm) {
  auto survey = testing::sample_survey();
  survey.measures[0].ending = {.way = Way::reset, .after_goaway = true};
  survey.measures[0].endings = {{.ending = {.way = Way::rst_stream}, .count = 3},
                                {.ending = {.way = Way::close, .status = 503}, .count = 2}};
  survey.measures[5].runs_from = {.origin = Origin::goaway, .goaway_code = "error 0x1f"};
  survey.measures[6].ending = {.way = Way::rst_stream, .status = 408};
  survey.measures[6].advertised = 2.5;
  survey.protocol = SurveyProtocol::h3;
  const auto document = to_json(survey);
  EXPECT_EQ(document.at("protocol").as_string(), "h3");
  EXPECT_EQ(document.at("measures").at(6).at("ending").as_string(), "408+rst-stream");
  EXPECT_EQ(document.at("measures").at(6).at("advertised").as_double(), 2.5);
  EXPECT_TRUE(document.at("measures").at(5).at("advertised").is_null());
  EXPECT_EQ(document.at("measures").at(0).at("ending").as_string(), "goaway+reset");
  EXPECT_EQ(document.at("measures").at(0).at("endings").at(1).at("ending").as_string(),
            "503+close");
  EXPECT_EQ(document.at("measures").at(5).at("runs_from").as_string(), "error 0x1f");
  EXPECT_EQ(survey_from_json(document), survey);
  // A document written before `advertised` was: read as none.
  auto older = document;
  for (auto& measure : older.at("measures").as_array()) measure.as_object().erase("advertised");
  EXPECT_EQ(survey_from_json(older), survey_from_json(to_json([&] {
              auto none = survey;
              none.measures[6].advertised.reset();
              return none;
            }())));
}

}  // namespace survey_words_test
}  // namespace loiter::reports
