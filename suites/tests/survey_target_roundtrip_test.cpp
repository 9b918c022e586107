// A drafted target file (reports/survey_target.hpp) read back by loiter's own target-file
// reader: the bundled files kept but for what was measured, which reads back as measured.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "canned_survey.hpp"
#include "loiter/fixtures/target/target_file.hpp"
#include "loiter/reports/survey_target.hpp"

namespace loiter {
namespace {

using namespace std::chrono_literals;
using fixtures::Duration;
using fixtures::NextHeadFrom;
using fixtures::OnTimeout;
using ::testing::HasSubstr;
using ::testing::Optional;

std::string bundled_text(std::string_view name) {
  std::ifstream in(std::string(LOITER_TARGETS_DIR) + "/" + std::string(name) + ".toml");
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read bundled target " + std::string(name));
  return text.str();
}

// The draft of `name`'s bundled file from `survey`, parsed as a target file of that name.
fixtures::Target drafted(std::string_view name, const reports::Survey& survey,
                         std::string* text = nullptr) {
  const auto source = std::string(name) + ".toml";
  const auto draft = reports::draft_target(
      survey, {.date = "2026-12-03", .source = source, .original = bundled_text(name)});
  if (text != nullptr) *text = draft;
  return fixtures::parse_target(draft, source);
}

Duration seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

// What canned::everything() measured, as its target file must say it.
void expect_everything_measured(const fixtures::Target& t) {
  EXPECT_THAT(t.deadlines.header, Optional(Duration(3s)));
  EXPECT_THAT(t.deadlines.body, Optional(seconds(4.37)));
  EXPECT_TRUE(t.deadlines.body_resets_on_progress);
  EXPECT_THAT(t.deadlines.idle, Optional(Duration(5s)));
  EXPECT_THAT(t.deadlines.next_head_from, Optional(NextHeadFrom::first_byte));
  EXPECT_THAT(t.promises.on_header_timeout, Optional(OnTimeout::respond_408));
  EXPECT_THAT(t.promises.on_body_timeout, Optional(OnTimeout::close));
  EXPECT_THAT(t.promises.send_timeout, Optional(Duration(6s)));
  EXPECT_TRUE(t.promises.send_timeout_resets_on_progress);
}

// reference.toml: its command passes the keys to the server's flags, so the drafted values
// reach the server; load_p99, which a survey does not measure, is kept.
TEST(SurveyTargetRoundTrip, ReferenceFileReadsBackAsMeasured) {
  std::string text;
  const auto t = drafted("reference", reports::canned::everything(), &text);
  expect_everything_measured(t);
  EXPECT_THAT(t.promises.load_p99, Optional(seconds(0.2)));
  EXPECT_THAT(t.command, ::testing::Contains("4.37"));
  EXPECT_EQ(t.name, "reference");
  EXPECT_THAT(t.description, HasSubstr("header/body/idle 3/4.37/5 s"));
  EXPECT_THAT(text, HasSubstr("# kept from reference.toml: not measured\nload_p99 = 0.2"));
  EXPECT_TRUE(text.ends_with("\n") && !text.ends_with("\n\n"));
}

// nginx.toml: its multi-line nginx.conf template is kept whole, its placeholders the drafted
// values.
TEST(SurveyTargetRoundTrip, NginxFileReadsBackAsMeasured) {
  const auto t = drafted("nginx", reports::canned::everything());
  expect_everything_measured(t);
  ASSERT_FALSE(t.files.empty());
  EXPECT_THAT(t.files[0].text,
              HasSubstr("client_header_timeout 3s;\n    client_body_timeout 4.37s;"));
  EXPECT_EQ(t.files.size(), 2u);
  EXPECT_EQ(t.paths.large, "/large");
}

// What a survey could not measure keeps the file's value; what ended never is left out,
// unless the file uses it as a placeholder (reference.toml passes deadlines.header on).
TEST(SurveyTargetRoundTrip, UnmeasuredKeysKeepTheirValueAndOpenOnesGoUnlessUsed) {
  auto survey = reports::canned::everything();
  reports::canned::measure(survey, "body-partial") =
      reports::canned::not_measured("body-partial", "no echo path");
  reports::canned::measure(survey, "header-partial") =
      reports::canned::timed("header-partial", "a partial head", std::nullopt);
  reports::canned::measure(survey, "next-head").runs_from = reports::canned::runs_from("never");
  const auto nginx = drafted("nginx", survey);
  EXPECT_THAT(nginx.deadlines.body, Optional(Duration(2s)));                // kept
  EXPECT_THAT(nginx.promises.on_body_timeout, Optional(OnTimeout::close));  // kept
  EXPECT_THAT(nginx.deadlines.header, Optional(Duration(2s)));  // used by nginx.conf: kept
  EXPECT_EQ(nginx.promises.on_header_timeout, std::nullopt);    // open: no promise
  EXPECT_EQ(nginx.deadlines.next_head_from, std::nullopt);
}

// A TLS h2 file: [tls] and [h2]'s measured keys replaced, alpn and [h2.flood] kept.
TEST(SurveyTargetRoundTrip, NginxH2FileReadsBackItsTlsAndH2Keys) {
  const auto t = drafted("nginx-h2", reports::canned::everything(reports::SurveyProtocol::h2, true));
  ASSERT_TRUE(t.tls.has_value());
  EXPECT_THAT(t.tls->handshake, Optional(seconds(1.5)));
  EXPECT_EQ(t.tls->header_from, fixtures::HeaderFrom::handshake);
  EXPECT_EQ(t.tls->alpn, std::vector<std::string>{"h2"});
  ASSERT_TRUE(t.h2.has_value());
  EXPECT_THAT(t.h2->preface, Optional(seconds(2.5)));
  EXPECT_TRUE(t.h2->goaway_on_idle);
  EXPECT_TRUE(t.h2->flood.has_value());
  EXPECT_THAT(t.deadlines.header, Optional(Duration(3s)));
}

// An h2c file whose idle close came without a GOAWAY says so.
TEST(SurveyTargetRoundTrip, ReferenceH2cFileReadsBackNoGoaway) {
  auto survey = reports::canned::everything(reports::SurveyProtocol::h2);
  reports::canned::measure(survey, "h2-idle").runs_from = reports::canned::runs_from("none");
  const auto t = drafted("reference-h2c", survey);
  ASSERT_TRUE(t.h2.has_value());
  EXPECT_FALSE(t.h2->goaway_on_idle);
  EXPECT_THAT(t.h2->preface, Optional(seconds(2.5)));
}

// A connect-only file has no command: given one, loiter's reader takes the rest as drafted.
TEST(SurveyTargetRoundTrip, ConnectOnlyFileReadsBackWithACommandAdded) {
  const auto draft = reports::draft_target(reports::canned::everything(reports::SurveyProtocol::http1, true),
                                           {.date = "2026-12-03",
                                            .name = "mine",
                                            .description = "mine at 127.0.0.1:8443",
                                            .paths = {{"health", "/"}, {"echo", "/echo"}},
                                            .alpn = {"http/1.1"},
                                            .server_name = "mine.test"});
  EXPECT_THAT(draft, ::testing::Not(HasSubstr("command")));
  const auto t = fixtures::parse_target(
      "command = [\"mine\", \"{port}\", \"{tls_cert}\", \"{tls_key}\"]\n" + draft, "mine.toml");
  expect_everything_measured(t);
  EXPECT_EQ(t.name, "mine");
  EXPECT_EQ(t.paths.health, "/");
  ASSERT_TRUE(t.tls.has_value());
  EXPECT_EQ(t.tls->server_name, "mine.test");
  EXPECT_THAT(t.tls->handshake, Optional(seconds(1.5)));
}

}  // namespace
}  // namespace loiter
