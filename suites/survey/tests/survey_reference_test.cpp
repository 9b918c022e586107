// The survey against the reference server, healthy and with each planted fault it must
// name: every case starts its own server (stopped by ServerUnderTest's destructor, also
// when an assertion fails) and surveys it with a short cap on every wait.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/survey_target.hpp"
#include "loiter/suites/survey/survey_run.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using reports::Survey;
using reports::SurveyMeasure;

// The reference server's deadlines here (its handshake deadline stays reference-tls's 1 s),
// and the cap on every wait: three times them, short enough for a test.
constexpr auto kDeadline = 1s;
constexpr auto kMaxWait = 3s;

enum class Over { http1, tls, h2c };

Survey survey_of(const std::vector<std::string>& faults, Over over = Over::http1,
                 bool floods = false) {
  const auto target = fixtures::reference_target({.header = kDeadline,
                                                  .body = kDeadline,
                                                  .idle = kDeadline,
                                                  .send = kDeadline,
                                                  .faults = faults,
                                                  .tls = over == Over::tls,
                                                  .h2c = over == Over::h2c});
  fixtures::ServerUnderTest server(target);
  SurveyRequest request{.target = target.name,
                        .host = server.host(),
                        .port = server.port(),
                        .tls = over == Over::tls,
                        .h2 = over == Over::h2c,
                        .floods = floods,
                        .echo = "/echo",
                        .large = "/large?bytes={bytes}",
                        .connections = 3,
                        .max_wait = kMaxWait};
  return run_survey(request);
}

// Every measure on one line each, for a failure's message.
std::string described(const Survey& survey) {
  std::string text;
  for (const auto& m : survey.measures) {
    text += m.id + ": " + to_string(m.ending);
    if (m.seconds) text += " " + std::to_string(m.seconds->median) + " s";
    for (const auto& e : m.endings)
      text += " [" + to_string(e.ending) + " x" + std::to_string(e.count) + "]";
    if (m.extends) text += *m.extends ? " extends" : " does-not-extend";
    if (const auto from = to_string(m.runs_from); !from.empty()) text += " from " + from;
    if (!m.not_measured.empty()) text += " not measured: " + m.not_measured;
    text += "\n";
  }
  return text;
}

const SurveyMeasure& measure(const Survey& survey, std::string_view id) {
  const auto* m = reports::find_measure(survey, id);
  if (m == nullptr) throw std::runtime_error("no measure " + std::string(id));
  return *m;
}

testing::AssertionResult near(const SurveyMeasure& m, double seconds) {
  if (!m.seconds)
    return testing::AssertionFailure() << m.id << ": no time (" << to_string(m.ending) << ")";
  if (std::abs(m.seconds->median - seconds) > 0.25) {
    return testing::AssertionFailure()
           << m.id << ": " << m.seconds->median << " s, not ~" << seconds;
  }
  return testing::AssertionSuccess();
}

TEST(SurveyReference, FindsEveryDeclaredDeadlineAndAnswer) {
  const auto survey = survey_of({});
  SCOPED_TRACE(described(survey));
  EXPECT_EQ(survey.protocol, reports::SurveyProtocol::http1);
  EXPECT_TRUE(near(measure(survey, "header-silent"), 1.0));
  EXPECT_TRUE(near(measure(survey, "header-partial"), 1.0));
  EXPECT_EQ(to_string(measure(survey, "header-partial").ending), "408+close");
  EXPECT_EQ(measure(survey, "header-partial").agreed, 3u);
  EXPECT_EQ(measure(survey, "header-bytes").extends, false);
  EXPECT_EQ(measure(survey, "header-lines").extends, false);
  EXPECT_TRUE(near(measure(survey, "body-partial"), 1.0));
  EXPECT_EQ(to_string(measure(survey, "body-partial").ending), "408+close");
  EXPECT_EQ(measure(survey, "body-trickle").extends, false);
  EXPECT_TRUE(near(measure(survey, "idle"), 1.0));
  EXPECT_EQ(to_string(measure(survey, "idle-reused").runs_from), "last-response");
  EXPECT_EQ(to_string(measure(survey, "next-head").runs_from), "first-byte");
  EXPECT_TRUE(near(measure(survey, "send-stopped"), 1.0));
  // Its send deadline restarts at each write that makes progress: a steady reader outlives it.
  EXPECT_EQ(measure(survey, "send-slow").extends, true);
  EXPECT_THAT(reports::draft_target(survey, {.date = "today", .name = "reference"}),
              testing::HasSubstr("\nsend_timeout_resets_on_progress = true\n"));
  for (const auto& m : survey.measures) EXPECT_EQ(m.exposure, "") << m.id;
}

// reference-tls: its handshake deadline (1 s) from connect, and its header deadline (here
// 1 s too) from connect, through the handshake.
TEST(SurveyReference, FindsTheHandshakeDeadlineAndWhereTheHeaderDeadlineRunsFrom) {
  const auto survey = survey_of({}, Over::tls);
  SCOPED_TRACE(described(survey));
  EXPECT_EQ(survey.protocol, reports::SurveyProtocol::tls);
  EXPECT_TRUE(near(measure(survey, "tls-handshake"), 1.0));
  EXPECT_EQ(measure(survey, "tls-hello-trickle").extends, false);
  EXPECT_EQ(to_string(measure(survey, "tls-header-from").runs_from), "connect");
  EXPECT_TRUE(near(measure(survey, "header-partial"), 1.0));
  EXPECT_EQ(to_string(measure(survey, "header-partial").ending), "408+close");
}

// reference-h2c: no preface deadline of its own (the header deadline covers it), the idle
// GOAWAY(NO_ERROR) a deadline after the last stream.
TEST(SurveyReference, FindsTheHttp2Deadlines) {
  const auto survey = survey_of({}, Over::h2c);
  SCOPED_TRACE(described(survey));
  EXPECT_EQ(survey.protocol, reports::SurveyProtocol::h2);
  EXPECT_TRUE(near(measure(survey, "h2-preface"), 1.0));
  EXPECT_TRUE(near(measure(survey, "h2-headers-no-end"), 1.0));
  EXPECT_TRUE(near(measure(survey, "h2-idle"), 1.0));
  EXPECT_EQ(to_string(measure(survey, "h2-idle").runs_from), "NO_ERROR");
  EXPECT_EQ(reports::find_measure(survey, "header-bytes"), nullptr);  // HTTP/1.1 only
}

// --floods: the reference server ends the continuation, SETTINGS and PING floods with a
// GOAWAY well within their bounds (its rapid-reset limit lies past the flood's 2,000
// frames); with the continuation flood unbounded, that one goes through whole.
TEST(SurveyReference, FloodsEndedByAGoawayAndOneLetThrough) {
  const auto survey = survey_of({}, Over::h2c, /*floods=*/true);
  SCOPED_TRACE(described(survey));
  for (const auto* id : {"h2-continuation-flood", "h2-settings-flood", "h2-ping-flood"}) {
    EXPECT_EQ(to_string(measure(survey, id).runs_from), "ENHANCE_YOUR_CALM") << id;
    EXPECT_EQ(measure(survey, id).exposure, "") << id;
  }
  const auto faulty = survey_of({"continuation-unbounded"}, Over::h2c, /*floods=*/true);
  SCOPED_TRACE(described(faulty));
  EXPECT_THAT(measure(faulty, "h2-continuation-flood").exposure,
              testing::HasSubstr("went through"));
}

struct Planted {
  std::string fault;
  std::function<void(const Survey&)> named;
  Over over = Over::http1;
};

class SurveyFault : public testing::TestWithParam<Planted> {};

TEST_P(SurveyFault, NamesThePlantedBehaviour) {
  const auto survey = survey_of({GetParam().fault}, GetParam().over);
  SCOPED_TRACE(described(survey));
  GetParam().named(survey);
}

INSTANTIATE_TEST_SUITE_P(
    Reference, SurveyFault,
    testing::Values(
        Planted{"no-header-deadline",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "header-silent").ending), "open");
                  EXPECT_EQ(to_string(measure(s, "header-partial").ending), "open");
                  EXPECT_THAT(measure(s, "header-partial").exposure,
                              testing::HasSubstr("for as long as the client likes"));
                }},
        Planted{"deadline-resets-on-progress",
                [](const Survey& s) {
                  EXPECT_EQ(measure(s, "header-bytes").extends, true);
                  EXPECT_THAT(measure(s, "header-bytes").exposure,
                              testing::HasSubstr("holds a request head open"));
                }},
        Planted{"deadline-resets-per-line",
                [](const Survey& s) {
                  EXPECT_EQ(measure(s, "header-lines").extends, true);
                  EXPECT_EQ(measure(s, "header-bytes").extends, false);
                }},
        Planted{"idle-from-connect",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "idle-reused").runs_from), "connect");
                }},
        Planted{"next-request-never-timed-out",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "next-head").runs_from), "never");
                  EXPECT_THAT(measure(s, "next-head").exposure, testing::HasSubstr("never"));
                }},
        Planted{"no-408-on-body-timeout",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "body-partial").ending), "close");
                  EXPECT_TRUE(near(measure(s, "body-partial"), 1.0));
                }},
        Planted{"no-send-deadline",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "send-stopped").ending), "open");
                  EXPECT_THAT(measure(s, "send-stopped").exposure,
                              testing::HasSubstr("stops reading"));
                }},
        // Every response must be sent whole by the header deadline from connect: the steady
        // reader is cut while it reads, and the draft does not say progress extends it.
        Planted{"cuts-slow-responses",
                [](const Survey& s) {
                  const auto& slow = measure(s, "send-slow");
                  EXPECT_EQ(slow.extends, false);
                  EXPECT_THAT(slow.note, testing::HasSubstr("cut while the reader made progress"));
                  const auto draft = reports::draft_target(s, {.date = "today", .name = "cut"});
                  EXPECT_THAT(draft,
                              testing::HasSubstr("\nsend_timeout_resets_on_progress = false\n"));
                }},
        Planted{"handshake-deadline-resets-on-progress",
                [](const Survey& s) { EXPECT_EQ(measure(s, "tls-hello-trickle").extends, true); },
                Over::tls},
        Planted{
            "idle-without-goaway",
            [](const Survey& s) { EXPECT_EQ(to_string(measure(s, "h2-idle").runs_from), "none"); },
            Over::h2c}),
    [](const testing::TestParamInfo<Planted>& param) {
      std::string name = param.param.fault;
      std::ranges::replace(name, '-', '_');
      return name;
    });

}  // namespace
}  // namespace loiter::suites
