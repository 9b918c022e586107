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

// Over HTTP/3 the handshake deadline stays reference-h3's 2 s: its bracket's first probes
// (0.75, 1.5 and 3 s) need a longer wait.
constexpr auto kMaxWaitH3 = 4s;

enum class Over { http1, tls, h2c, h3 };

Survey survey_of(const std::vector<std::string>& faults, Over over = Over::http1,
                 bool floods = false) {
  const auto target = fixtures::reference_target({.header = kDeadline,
                                                  .body = kDeadline,
                                                  .idle = kDeadline,
                                                  .send = kDeadline,
                                                  .faults = faults,
                                                  .tls = over == Over::tls,
                                                  .h2c = over == Over::h2c,
                                                  .h3 = over == Over::h3});
  fixtures::ServerUnderTest server(target);
  const bool h3 = over == Over::h3;
  SurveyRequest request{.target = target.name,
                        .host = server.host(),
                        .port = h3 ? fixtures::h3_port(target, server.port()) : server.port(),
                        .tls = over == Over::tls,
                        .server_name = h3 ? "localhost" : "",
                        .h2 = over == Over::h2c,
                        .h3 = h3,
                        .floods = floods,
                        .echo = "/echo",
                        .large = "/large?bytes={bytes}",
                        .connections = 3,
                        .max_wait = h3 ? kMaxWaitH3 : kMaxWait};
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
  // A stream's body and send deadlines: RST_STREAM a deadline after its HEADERS, progress
  // extending neither (the send deadline restarts with each window the reader opens).
  for (const auto* id : {"body-partial", "send-stopped"}) {
    EXPECT_TRUE(near(measure(survey, id), 1.0)) << id;
  }
  EXPECT_EQ(measure(survey, "body-trickle").extends, false);
  EXPECT_EQ(measure(survey, "send-slow").extends, true);
  const auto draft = reports::draft_target(survey, {.date = "today", .name = "reference"});
  EXPECT_THAT(draft, testing::HasSubstr("\nbody = 1\n"));
  EXPECT_THAT(draft, testing::HasSubstr("\nsend_timeout = 1\n"));
}

// reference-h3: its handshake (2 s) and idle (1 s, advertised) deadlines bracketed by
// probes, its stream deadlines (1 s) ended by RESET_STREAM, a closed control stream by
// CONNECTION_CLOSE H3_CLOSED_CRITICAL_STREAM; the draft holds them in [h3].
TEST(SurveyReference, FindsTheHttp3DeadlinesAndDraftsThem) {
  const auto survey = survey_of({}, Over::h3);
  SCOPED_TRACE(described(survey));
  EXPECT_EQ(survey.protocol, reports::SurveyProtocol::h3);
  EXPECT_FALSE(survey.tls);
  const auto& handshake = measure(survey, "h3-handshake");
  EXPECT_EQ(to_string(handshake.ending), "gone");
  EXPECT_TRUE(near(handshake, 2.0));
  ASSERT_TRUE(handshake.seconds);
  EXPECT_LE(handshake.seconds->max - handshake.seconds->min, 0.3);  // narrowed in phase two
  const auto& idle = measure(survey, "h3-idle");
  EXPECT_EQ(to_string(idle.ending), "gone");
  EXPECT_TRUE(near(idle, 1.0));
  EXPECT_EQ(idle.advertised, 1.0);
  for (const auto* id : {"h3-header", "h3-body", "h3-send"}) {
    EXPECT_TRUE(near(measure(survey, id), 1.0)) << id;
    EXPECT_EQ(to_string(measure(survey, id).ending), "rst-stream") << id;
  }
  EXPECT_THAT(measure(survey, "h3-header").note, testing::HasSubstr("H3_REQUEST_INCOMPLETE"));
  EXPECT_EQ(measure(survey, "h3-header-trickle").extends, false);
  EXPECT_EQ(to_string(measure(survey, "h3-control-close").ending), "close");
  EXPECT_THAT(measure(survey, "h3-control-close").note,
              testing::HasSubstr("H3_CLOSED_CRITICAL_STREAM"));
  EXPECT_EQ(reports::find_measure(survey, "header-silent"), nullptr);  // no TCP connection
  const auto draft = reports::draft_target(survey, {.date = "today", .name = "reference"});
  // The handshake's bracket's earliest "gone" (2 s and a little, as the probes fell).
  EXPECT_THAT(draft, testing::ContainsRegex("\nhandshake = 2(\\.[0-3][0-9]?)?\n"));
  for (const auto* line : {"\n[h3]\n", "\nidle_advertised = 1\n",
                           "\nidle = 1\n", "\nheader = 1\n", "\nbody = 1\n", "\nsend = 1\n",
                           "\nheader_408 = false\n", "\nbody_408 = false\n"}) {
    EXPECT_THAT(draft, testing::HasSubstr(line));
  }
  EXPECT_THAT(draft, testing::Not(testing::HasSubstr("[deadlines]")));
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
            Over::h2c},
        // Over HTTP/3: each deadline the fault removes is "open" (none within the wait).
        // Without its handshake deadline the half-open connection outlives the 2 s: it is
        // still held past it (ngtcp2's idle timer, three PTOs of an RTT never measured, may
        // end it near 3 s, or the wait runs out first).
        Planted{"no-handshake-deadline",
                [](const Survey& s) {
                  const auto& handshake = measure(s, "h3-handshake");
                  if (handshake.seconds) {
                    EXPECT_GT(handshake.seconds->min, 2.25) << "held no later than the deadline";
                  } else {
                    EXPECT_EQ(to_string(handshake.ending), "open");
                  }
                  EXPECT_TRUE(near(measure(s, "h3-header"), 1.0));
                },
                Over::h3},
        Planted{"no-idle-deadline",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "h3-idle").ending), "open");
                  EXPECT_TRUE(near(measure(s, "h3-handshake"), 2.0));
                },
                Over::h3},
        Planted{"no-header-deadline",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "h3-header").ending), "open");
                  EXPECT_TRUE(near(measure(s, "h3-body"), 1.0));
                },
                Over::h3},
        Planted{"deadline-resets-on-progress",
                [](const Survey& s) {
                  EXPECT_EQ(measure(s, "h3-header-trickle").extends, true);
                  EXPECT_TRUE(near(measure(s, "h3-header"), 1.0));
                },
                Over::h3},
        Planted{"no-send-deadline",
                [](const Survey& s) {
                  EXPECT_EQ(to_string(measure(s, "h3-send").ending), "open");
                  EXPECT_TRUE(near(measure(s, "h3-header"), 1.0));
                },
                Over::h3},
        Planted{"ignores-critical-stream-close",
                [](const Survey& s) {
                  EXPECT_NE(to_string(measure(s, "h3-control-close").ending), "close");
                },
                Over::h3}),
    [](const testing::TestParamInfo<Planted>& param) {
      std::string name = param.param.fault;
      std::ranges::replace(name, '-', '_');
      // A fault of the same name over HTTP/1.1 and HTTP/3 (no-header-deadline): two cases.
      return param.param.over == Over::h3 ? name + "_h3" : name;
    });

}  // namespace
}  // namespace loiter::suites
