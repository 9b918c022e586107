// draft_target(): each measured key under its comment, never a value loiter did not measure;
// a surveyed file's own text kept around the tables it replaces. (Read back by loiter's own
// target-file reader: suites/tests/survey_target_roundtrip_test.cpp.)
#include "loiter/reports/survey_target.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "canned_survey.hpp"
#include "toml_text.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

DraftHead connect_head() {
  return {.date = "2026-12-03",
          .name = "mine",
          .description = "mine 1.2 \"beta\"",
          .paths = {{"health", "/health"}, {"echo", "/echo"}}};
}

DraftHead file_head(std::string text) {
  return {.date = "2026-12-03", .source = "mine.toml", .original = std::move(text)};
}

// A deadline is the median, under a comment saying what was measured, and a promise only once
// configured.
TEST(SurveyTarget, ConnectOnlyFileHoldsEveryMeasuredKeyUnderItsComment) {
  const auto text = draft_target(canned::everything(), connect_head());
  EXPECT_THAT(text, ::testing::StartsWith(
                        "# Drafted by loiter survey on 2026-12-03 from nginx (127.0.0.1:8080, "
                        "http1): [deadlines] and\n# [promises] hold what"));
  EXPECT_THAT(text, HasSubstr("judges the server against it.\n\nname = \"mine\"\n"));
  EXPECT_THAT(text, HasSubstr("name = \"mine\"\ndescription = \"mine 1.2 \\\"beta\\\"\"\n"));
  EXPECT_THAT(text, HasSubstr("[paths]\nhealth = \"/health\"\necho = \"/echo\"\n"));
  EXPECT_THAT(text, HasSubstr("[deadlines]\n# measured 2026-12-03 (header-partial), 5/5 "
                              "connections: 3.00 s (min 2.99, max 3.01); a promise only once "
                              "your configuration says so\nheader = 3\n"));
  EXPECT_THAT(text, HasSubstr("\nbody = 4.37\n"));
  EXPECT_THAT(text, HasSubstr("a byte every 1.90 s extended the deadline"));
  EXPECT_THAT(text, HasSubstr("\nbody_resets_on_progress = true\n"));
  EXPECT_THAT(text, HasSubstr("\nidle = 5\n"));
  EXPECT_THAT(text, HasSubstr("\nnext_head_from = \"first-byte\"\n"));
  EXPECT_THAT(text, HasSubstr("ended 408+close; a promise only once your configuration says "
                              "so\non_header_timeout = \"408\"\n"));
  EXPECT_THAT(text, HasSubstr("\non_body_timeout = \"close\"\n"));
  EXPECT_THAT(text, HasSubstr("\nsend_timeout = 6\n"));
  EXPECT_THAT(text, HasSubstr("\nsend_timeout_resets_on_progress = true\n"));
  EXPECT_THAT(text, Not(HasSubstr("command")));
  EXPECT_THAT(text, Not(HasSubstr("[tls]")));
  EXPECT_THAT(text, Not(HasSubstr("[h2]")));
}

// A connect-only TLS h2 file: [tls] with what loiter offered, [h2], each measured key.
TEST(SurveyTarget, ConnectOnlyTlsH2FileHoldsTheirTablesAndMeasuredKeys) {
  auto head = connect_head();
  head.alpn = {"h2"};
  head.server_name = "mine.test";
  const auto text = draft_target(canned::everything(SurveyProtocol::h2, true), head);
  EXPECT_THAT(text, HasSubstr("[tls]\nalpn = [\"h2\"]\nserver_name = \"mine.test\"\n"));
  EXPECT_THAT(text, HasSubstr("\nhandshake = 1.5\n"));
  EXPECT_THAT(text, HasSubstr("\nheader_from = \"handshake\"\n"));
  EXPECT_THAT(text, HasSubstr("[h2]\n# measured"));
  EXPECT_THAT(text, HasSubstr("\npreface = 2.5\n"));
  EXPECT_THAT(text, HasSubstr("GOAWAY NO_ERROR before the idle close"));
  EXPECT_THAT(text, HasSubstr("\ngoaway_on_idle = true\n"));
}

// No ending within the cap is no deadline: the key is left out, the comment says so.
TEST(SurveyTarget, AnOpenMeasureLeavesItsKeyOutWithAComment) {
  auto survey = canned::everything();
  canned::measure(survey, "header-partial") =
      canned::timed("header-partial", "a partial head", std::nullopt);
  const auto text = draft_target(survey, connect_head());
  EXPECT_THAT(text, HasSubstr("# header: none within 120 s: this server did not end a partial "
                              "head (header-partial)\n"));
  EXPECT_THAT(text, Not(HasSubstr("\nheader =")));
  EXPECT_THAT(text, Not(HasSubstr("\non_header_timeout =")));
}

// Where header-partial was not measured, the header deadline is a silent connection's.
TEST(SurveyTarget, HeaderFallsBackToTheSilentConnection) {
  auto survey = canned::everything();
  canned::measure(survey, "header-partial") = canned::not_measured("header-partial", "why");
  canned::measure(survey, "header-silent") =
      canned::timed("header-silent", "a silent connection", 7.0);
  const auto text = draft_target(survey, connect_head());
  EXPECT_THAT(text, HasSubstr("(header-silent), 5/5 connections: 7.00 s"));
  EXPECT_THAT(text, HasSubstr("\nheader = 7\n"));
  EXPECT_THAT(text, HasSubstr("# on_header_timeout: not measured (header-partial): why\n"));
}

// A server that never timed out a second head declares no next_head_from.
TEST(SurveyTarget, NextHeadNeverLeavesNextHeadFromOut) {
  auto survey = canned::everything();
  canned::measure(survey, "next-head").runs_from = canned::runs_from("never");
  const auto text = draft_target(survey, connect_head());
  EXPECT_THAT(text, HasSubstr("# next_head_from: measured 2026-12-03 (next-head), 5/5 "
                              "connections: the server never timed out a second head\n"));
  EXPECT_THAT(text, Not(HasSubstr("next_head_from =")));
}

// An answer that is neither a 408 nor a close is no promise: a comment says what it was.
TEST(SurveyTarget, AnotherStatusIsACommentNotAPromise) {
  auto survey = canned::everything();
  canned::measure(survey, "header-partial").ending = canned::ending("400+close");
  const auto text = draft_target(survey, connect_head());
  EXPECT_THAT(text, HasSubstr("ended 400+close, neither \"408\" nor \"close\""));
  EXPECT_THAT(text, Not(HasSubstr("on_header_timeout =")));
  EXPECT_THAT(text, HasSubstr("\nheader = 3\n"));  // the time is a deadline all the same
}

// A probe the server answered whole met no deadline: nothing is drafted from its time.
TEST(SurveyTarget, AnAnsweredProbeDraftsNoDeadline) {
  auto survey = canned::everything();
  canned::measure(survey, "send-stopped").ending = canned::ending("answered");
  const auto text = draft_target(survey, connect_head());
  EXPECT_THAT(text, HasSubstr("# send_timeout: not measured (send-stopped): the server answered "
                              "5/5 connections whole, no deadline met\n"));
  EXPECT_THAT(text, Not(HasSubstr("send_timeout =")));
}

// A reset after the 408 is still a 408; a plain reset is a close.
TEST(SurveyTarget, ResetsAnswerAsTheirCloses) {
  auto survey = canned::everything();
  canned::measure(survey, "header-partial").ending = canned::ending("408+reset");
  canned::measure(survey, "body-partial").ending = canned::ending("reset");
  const auto text = draft_target(survey, connect_head());
  EXPECT_THAT(text, HasSubstr("on_header_timeout = \"408\"\n"));
  EXPECT_THAT(text, HasSubstr("on_body_timeout = \"close\"\n"));
}

constexpr std::string_view kMine = R"(# mine, as its author wrote it
name = "mine"
description = "mine, header {deadlines.header} s"
command = ["/opt/mine", "--port", "{port}", "--header", "{deadlines.header}"]
[[files]]
path = "mine.conf"
template = """
[deadlines]
header = 99
'''
"""
[[files]]
path = 'b.conf'
template = '''
[promises]
send_timeout = 99
"""
'''

[paths]
echo = "/echo"

[deadlines]  # the author's
header = 2
body = 2  # the body
idle = 2

# the promises, as configured
[promises]
on_header_timeout = "close"
load_p99 = 0.2
)";

// The file's text is kept but for [deadlines] and [promises]; tables inside multi-line
// strings are text of them; an unmeasured key keeps its old value, saying so.
TEST(SurveyTarget, FileKeepsItsTextAndReplacesOnlyItsDeadlinesAndPromises) {
  auto survey = canned::everything();
  canned::measure(survey, "body-partial") =
      canned::not_measured("body-partial", "no echo path: give --echo PATH");
  const auto text = draft_target(survey, file_head(std::string(kMine)));
  EXPECT_THAT(text, HasSubstr("template = \"\"\"\n[deadlines]\nheader = 99\n'''\n\"\"\"\n"));
  EXPECT_THAT(text, HasSubstr("template = '''\n[promises]\nsend_timeout = 99\n\"\"\"\n'''\n"));
  EXPECT_THAT(text, HasSubstr("[paths]\necho = \"/echo\"\n\n[deadlines]\n# measured"));
  EXPECT_THAT(text, HasSubstr("\nheader = 3\n"));
  EXPECT_THAT(text, HasSubstr("# kept from mine.toml: not measured (body-partial): no echo path: "
                              "give --echo PATH\nbody = 2  # the body\n"));
  EXPECT_THAT(text, HasSubstr("\nidle = 5\n"));
  EXPECT_THAT(text, HasSubstr("\n\n# the promises, as configured\n[promises]\n"));
  EXPECT_THAT(text, HasSubstr("on_header_timeout = \"408\"\n"));
  EXPECT_THAT(text, HasSubstr("# kept from mine.toml: not measured\nload_p99 = 0.2\n"));
  EXPECT_THAT(text, Not(HasSubstr("on_header_timeout = \"close\"")));
  EXPECT_THAT(text, Not(HasSubstr("the author's")));
}

// A key the file uses as a placeholder stays, with its old value, even where none was measured.
TEST(SurveyTarget, AKeyThatIsAPlaceholderStaysWhenMeasuredNone) {
  auto survey = canned::everything();
  canned::measure(survey, "header-partial") =
      canned::timed("header-partial", "a partial head", std::nullopt);
  const auto text = draft_target(survey, file_head(std::string(kMine)));
  EXPECT_THAT(text, HasSubstr("# kept from mine.toml: the file uses {deadlines.header}; none "
                              "within 120 s: this server did not end a partial head "
                              "(header-partial)\nheader = 2\n"));
}

// [tls] and [h2] keep their other keys (alpn, [h2.flood]); their measured keys are replaced
// where they stand or added.
TEST(SurveyTarget, TlsAndH2KeepTheirOtherKeys) {
  const std::string text = R"(command = ["x", "{port}", "{tls_cert}"]
[tls]
alpn = ["h2"]
header_from = "connect"  # old

[h2]
preface = "2s"
[h2.flood]
frames = 100
)";
  const auto draft = draft_target(canned::everything(SurveyProtocol::h2, true), file_head(text));
  EXPECT_THAT(draft, HasSubstr("[tls]\nalpn = [\"h2\"]\n# measured 2026-12-03 (tls-header-from)"));
  EXPECT_THAT(draft, HasSubstr("\nheader_from = \"handshake\"\n# measured 2026-12-03 "
                               "(tls-handshake), 5/5 connections: 1.50 s"));
  EXPECT_THAT(draft, HasSubstr("\nhandshake = 1.5\n\n[h2]\n"));
  EXPECT_THAT(draft, HasSubstr("\npreface = \"2.5s\"\n"));  // a string as the file had it
  EXPECT_THAT(draft, HasSubstr("\ngoaway_on_idle = true\n[h2.flood]\nframes = 100\n"));
  EXPECT_THAT(draft, Not(HasSubstr("# old")));
}

TEST(SurveyTarget, AFileWithoutTheTablesGetsThemAtItsEnd) {
  const auto text = draft_target(canned::everything(), file_head("command = [\"x\", \"{port}\"]"));
  EXPECT_THAT(text, HasSubstr("command = [\"x\", \"{port}\"]\n\n[deadlines]\n# measured"));
  EXPECT_THAT(text, HasSubstr("\n\n[promises]\n# measured"));
}

TEST(SurveyTarget, RefusesWhatItCannotScanOrReplace) {
  EXPECT_THROW(draft_target(canned::everything(), file_head("a = \"\"\"\nnever closed\n")),
               std::invalid_argument);
  EXPECT_THROW(draft_target(canned::everything(), file_head("deadlines.header = 2\n")),
               std::invalid_argument);
  EXPECT_THROW(draft_target(canned::everything(), file_head("promises = { send_timeout = 2 }\n")),
               std::invalid_argument);
}

TEST(SurveyTarget, DraftedSecondsAreWholeWithinSlackElseHundredths) {
  EXPECT_EQ(drafted_seconds(2.004, 0.25), "2");
  EXPECT_EQ(drafted_seconds(2.2, 0.25), "2");
  EXPECT_EQ(drafted_seconds(2.3, 0.25), "2.3");
  EXPECT_EQ(drafted_seconds(1.372, 0.25), "1.37");
  EXPECT_EQ(drafted_seconds(0.2, 0.25), "0.2");  // never 0
  EXPECT_EQ(drafted_seconds(0.001, 0.25), "0.01");
  EXPECT_EQ(drafted_seconds(60.1, 0.25), "60");
}

TEST(TomlText, CutsHeadersAndEntriesAndJoinsBackToTheText) {
  const auto items = toml_text::scan(kMine, "mine.toml");
  std::string joined;
  std::vector<std::string> headers;
  for (const auto& item : items) {
    joined += item.text;
    if (item.kind == toml_text::Item::Kind::header) headers.push_back(item.name);
  }
  EXPECT_EQ(joined, kMine);
  EXPECT_EQ(headers,
            (std::vector<std::string>{"files", "files", "paths", "deadlines", "promises"}));
  const auto multi = toml_text::scan("a = [\n  1, # one\n  2,\n]\nb = 'x#y' # c\n", "t");
  ASSERT_EQ(multi.size(), 2u);
  EXPECT_EQ(multi[0].text, "a = [\n  1, # one\n  2,\n]\n");
  EXPECT_EQ(multi[1].name, "b");
}

}  // namespace
}  // namespace loiter::reports
