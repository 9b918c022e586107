// The survey's reading of records: each rule on canned records, so each can fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loiter/reports/survey_target.hpp"
#include "read_measures.hpp"

namespace loiter::suites::survey {
namespace {

using clients::ConnectionRecord;
using clients::Ending;
using namespace std::chrono_literals;

clients::Duration s(double seconds) {
  return std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(seconds));
}

ConnectionRecord ended(Ending ending, double at) {
  ConnectionRecord record;
  record.kind = "silent";
  record.ending = ending;
  record.ended_at = s(at);
  return record;
}

ConnectionRecord with_408(double at) {
  auto record = ended(Ending::close, at);
  record.responses.push_back({.status = 408, .started = s(at), .complete = s(at)});
  return record;
}

// An ending by its word in survey.json ("408+close").
reports::SurveyEnding said(std::string_view word) {
  return reports::survey_ending_of(word).value();
}

const MeasureHead kHead{
    .id = "header-partial", .title = "a head", .kind = "partial-header", .from = "connect"};

TEST(Summarize, TakesTheServersEndingAndItsSpreadAndCountsWhoAgrees) {
  const std::vector<Timed> timed = {{said("408+close"), 2.00},
                                    {said("408+close"), 2.01},
                                    {said("408+close"), 2.02},
                                    {said("408+close"), 3.50},
                                    {said("open"), std::nullopt}};
  const auto m = summarize(kHead, timed, 0.25);
  EXPECT_EQ(to_string(m.ending), "408+close");
  ASSERT_TRUE(m.seconds);
  EXPECT_DOUBLE_EQ(m.seconds->min, 2.00);
  EXPECT_DOUBLE_EQ(m.seconds->max, 3.50);
  EXPECT_NEAR(m.seconds->median, 2.015, 1e-6);
  EXPECT_EQ(m.agreed, 3u);  // 3.50 is past the slack of the median
  EXPECT_EQ(m.connections, 5u);
  ASSERT_EQ(m.endings.size(), 2u);
  EXPECT_EQ(to_string(m.endings[0].ending), "408+close");
  EXPECT_EQ(m.endings[0].count, 4u);
}

TEST(Summarize, OpenEverywhereIsAResultWithoutATime) {
  const auto m =
      summarize(kHead, {{said("open"), std::nullopt}, {said("open"), std::nullopt}}, 0.25);
  EXPECT_EQ(to_string(m.ending), "open");
  EXPECT_FALSE(m.seconds);
  EXPECT_EQ(m.agreed, 2u);
}

TEST(Summarize, AMajorityStillOpenOutweighsOneClose) {
  const auto m = summarize(
      kHead, {{said("open"), std::nullopt}, {said("open"), std::nullopt}, {said("close"), 1.0}},
      0.25);
  EXPECT_EQ(to_string(m.ending), "open");
}

TEST(ReadProbe, TimesFromEachOrigin) {
  auto record = with_408(2.5);
  record.sends.push_back({.at = s(0.5), .bytes = 10});
  EXPECT_EQ(to_string(from_connect(record).ending), "408+close");
  EXPECT_DOUBLE_EQ(*from_connect(record).seconds, 2.5);
  EXPECT_DOUBLE_EQ(*from_first_send(record).seconds, 2.0);
  EXPECT_FALSE(from_connect(ended(Ending::open, 120)).seconds);
}

reports::SurveyMeasure measured(std::string ending, std::optional<double> median) {
  reports::SurveyMeasure m{.id = "x", .interval = "a byte every 0.90 s", .ending = said(ending)};
  if (median) m.seconds = reports::Spread{*median, *median, *median};
  return m;
}

TEST(JudgeProgress, ExtendsWhenStillOpenOrEndedPastTheStalledDeadline) {
  const auto stalled = measured("408+close", 2.0);
  auto open = measured("open", std::nullopt);
  judge_progress(open, stalled, "a request head", 0.25, 120);
  EXPECT_EQ(open.extends, true);
  EXPECT_THAT(open.exposure, testing::HasSubstr("a byte every 0.90 s holds a request head open "
                                                "for as long as the client likes"));
  auto later = measured("408+close", 6.0);
  judge_progress(later, stalled, "a request head", 0.25, 120);
  EXPECT_EQ(later.extends, true);
  auto same = measured("408+close", 2.1);
  judge_progress(same, stalled, "a request head", 0.25, 120);
  EXPECT_EQ(same.extends, false);
  EXPECT_TRUE(same.exposure.empty());
  auto nothing = measured("408+close", 2.0);
  judge_progress(nothing, measured("open", std::nullopt), "a request head", 0.25, 120);
  EXPECT_FALSE(nothing.extends);
}

// keepalive-partial: first response whole at 0.1 s, half head sent at 0.9 s.
ConnectionRecord next_head(double ended_at) {
  auto record = ended(Ending::close, ended_at);
  record.responses.push_back({.status = 200, .started = s(0.05), .complete = s(0.1)});
  record.sends = {{.at = s(0.0), .bytes = 40}, {.at = s(0.9), .bytes = 20}};
  record.requests = 1;
  return record;
}

TEST(ReadNextHead, TellsFirstByteFromLastResponseFromNever) {
  const MeasureHead head{.id = "next-head"};
  std::vector<ConnectionRecord> first_byte(3, next_head(2.9));
  EXPECT_EQ(to_string(read_next_head(head, first_byte, 2.0, 2.0, 0.25).runs_from), "first-byte");
  std::vector<ConnectionRecord> last_response(3, next_head(2.1));
  EXPECT_EQ(to_string(read_next_head(head, last_response, 2.0, 2.0, 0.25).runs_from),
            "last-response");
  auto open = next_head(120);
  open.ending = Ending::open;
  std::vector<ConnectionRecord> never(3, open);
  EXPECT_EQ(to_string(read_next_head(head, never, 2.0, 2.0, 0.25).runs_from), "never");
}

ConnectionRecord reused(std::size_t answered, double ended_at) {
  auto record = ended(Ending::close, ended_at);
  for (std::size_t i = 0; i < answered; ++i) {
    record.responses.push_back({.status = 200,
                                .started = s(1.2 * static_cast<double>(i)),
                                .complete = s(1.2 * static_cast<double>(i) + 0.01)});
  }
  record.requests = answered;
  return record;
}

TEST(ReadIdleReused, EndedBeforeItsLastRequestMeansIdleFromConnect) {
  const MeasureHead head{.id = "idle-reused"};
  std::vector<ConnectionRecord> from_connect_records(3, reused(2, 2.0));
  const auto early = read_idle_reused(head, from_connect_records, 4, 0.25);
  EXPECT_EQ(to_string(early.runs_from), "connect");
  EXPECT_NEAR(early.seconds->median, 2.0, 1e-6);
  std::vector<ConnectionRecord> healthy(3, reused(4, 5.61));
  const auto good = read_idle_reused(head, healthy, 4, 0.25);
  EXPECT_EQ(to_string(good.runs_from), "last-response");
  EXPECT_NEAR(good.seconds->median, 2.0, 1e-6);
}

TEST(SendStopped, TimesTheServersCloseFromTheStalledWrites) {
  auto record = ended(Ending::open, 120);
  record.source = "127.0.0.2:4000";
  record.pause = clients::ReadPause{.from = s(0.1), .until = s(120), .filled = s(0.3)};
  ServerCloses closes{{"127.0.0.2:4000", {.seconds = 2.4, .ending = said("close")}}};
  const auto timed = send_stopped({record}, closes);
  ASSERT_EQ(timed.size(), 1u);
  EXPECT_EQ(to_string(timed[0].ending), "close");
  EXPECT_NEAR(*timed[0].seconds, 2.1, 1e-6);
  EXPECT_EQ(to_string(send_stopped({record}, {}).front().ending), "open");
}

TEST(ReadSendSlow, ACutFromTheRequestDespiteProgressDoesNotExtend) {
  const MeasureHead head{.id = "send-slow"};
  auto cut = ended(Ending::close, 2.05);
  cut.sends.push_back({.at = s(0.0), .bytes = 60});
  cut.responses.push_back({.status = 200, .started = s(0.01)});
  EXPECT_EQ(read_send_slow(head, {cut, cut, cut}, 2.0, 0.25, 120).extends, false);
  auto whole = ended(Ending::close, 10);
  whole.responses.push_back({.status = 200, .started = s(0.01), .complete = s(8.0)});
  EXPECT_EQ(read_send_slow(head, {whole, whole}, 2.0, 0.25, 120).extends, true);
  auto quick = whole;
  quick.responses.front().complete = s(1.0);
  EXPECT_FALSE(read_send_slow(head, {quick}, 2.0, 0.25, 120).extends);
}

// A server that cuts any response not read out within 2 s of the request (Go's WriteTimeout):
// the steady reader reads on, 128 KiB every 50 ms, until the close queued behind what the
// server had sent reaches it at 3.13 s, past the stopped reader's 2 s. It was still taking
// bytes at the cut: progress did not extend the deadline, whenever the client saw the close.
TEST(ReadSendSlow, ACutWhileTheReaderTookBytesDoesNotExtendHoweverLateItWasSeen) {
  const MeasureHead head{.id = "send-slow", .title = "a slow reader"};
  auto cut = ended(Ending::close, 3.13);
  cut.sends.push_back({.at = s(0.0), .bytes = 60});
  cut.first_byte = s(0.01);
  cut.responses.push_back({.status = 200, .started = s(0.01)});
  for (int k = 1; k * 0.05 < 3.13; ++k) {
    cut.progress.push_back({.at = s(k * 0.05), .bytes = k * 128 * 1024u});
  }
  const auto m = read_send_slow(head, {cut, cut, cut}, 2.0, 0.25, 120);
  EXPECT_EQ(m.extends, false);
  EXPECT_THAT(m.note, testing::HasSubstr("cut while the reader made progress (3/3 connections"));
  reports::Survey survey{.target = "go", .endpoint = "127.0.0.1:8080", .slack = 0.25};
  survey.measures.push_back(m);
  const auto draft = reports::draft_target(survey, {.date = "2026-12-06", .name = "go"});
  EXPECT_THAT(draft, testing::HasSubstr("\nsend_timeout_resets_on_progress = false\n"));
  EXPECT_THAT(draft, testing::Not(testing::HasSubstr("send_timeout_resets_on_progress = true")));
  // The same cut after the reader went the stopped reader's deadline without a byte: the
  // server's own stall, no sign either way; the time decides as before.
  auto stalled = cut;
  std::erase_if(stalled.progress, [](const clients::Progress& p) { return p.at > s(0.5); });
  EXPECT_EQ(read_send_slow(head, {stalled}, 2.0, 0.25, 120).extends, true);
}

TEST(ReadH2Idle, NamesTheGoawaysCodeOrNone) {
  const MeasureHead head{.id = "h2-idle"};
  auto record = ended(Ending::close, 2.1);
  record.responses.push_back({.status = 200, .started = s(0.05), .complete = s(0.1)});
  EXPECT_EQ(to_string(read_h2_idle(head, {record}, 0.25).runs_from), "none");
  record.h2 = clients::H2Record{};
  record.h2->goaway = clients::H2Goaway{.at = s(2.1), .code = 0};
  EXPECT_EQ(to_string(read_h2_idle(head, {record}, 0.25).runs_from), "NO_ERROR");
  // A GOAWAY at the deadline and the close a second later (x/net waits for the client to go
  // first): timed to the GOAWAY, the wait in the note.
  record.ended_at = s(3.1);
  const auto late = read_h2_idle(head, {record}, 0.25);
  EXPECT_NEAR(late.seconds->median, 2.0, 1e-6);
  EXPECT_THAT(late.note, testing::HasSubstr("1.00 s later"));
  EXPECT_EQ(clients::h2_error_name(11), "ENHANCE_YOUR_CALM");
}

// A flood the server ends with a GOAWAY is ended there, whether or not it closes after:
// timed to the GOAWAY, named by its code; one whose every frame went out is an exposure.
TEST(ReadFlood, AGoawayEndsTheFloodEvenWithoutAClose) {
  const MeasureHead head{.id = "h2-ping-flood"};
  auto record = ended(Ending::open, 7.0);
  record.h2 = clients::H2Record{.frames_sent = 150};
  record.h2->goaway = clients::H2Goaway{.at = s(0.02), .code = 11, .frames_sent = 120};
  record.h2->resets.push_back({.at = s(0.01), .stream = 1, .code = 8});  // not the flood's end
  const auto m = read_flood(head, {record}, 10'000, 0.25);
  EXPECT_EQ(to_string(m.ending), "goaway");
  EXPECT_NEAR(m.seconds->median, 0.02, 1e-6);
  EXPECT_EQ(to_string(m.runs_from), "ENHANCE_YOUR_CALM");
  EXPECT_EQ(m.exposure, "");
  EXPECT_THAT(m.note, testing::HasSubstr("ended after 120 of its frames"));
  auto through = ended(Ending::open, 7.0);
  through.h2 = clients::H2Record{.frames_sent = 10'000};
  EXPECT_THAT(read_flood(head, {through}, 10'000, 0.25).exposure,
              testing::HasSubstr("all 10000 frames of the flood went through"));
}

// An h3 flood is timed to the server's CONNECTION_CLOSE, named by its code, with the frames
// out by then; one whose every frame went through is an exposure only where the server must
// end it (rapid reset), a note where it need only bound it (PING); a server that stopped
// granting credit refused what came next.
TEST(ReadH3Flood, ACloseEndsItAndOnlyAMustEndFloodLetThroughIsAnExposure) {
  const MeasureHead cid{.id = "h3-connection-id", .kind = "h3-connection-id"};
  auto closed = ended(Ending::close, 0.04);
  closed.h3 = clients::H3Record{};
  closed.h3->frames_sent = 1'083;
  closed.h3->frames_at_close = 1'083;
  closed.h3->close = clients::H3Close{.at = s(0.04), .code = 0x09, .application = false};
  const auto m = read_h3_flood(cid, {closed}, 10'000, 0.25);
  EXPECT_EQ(to_string(m.ending), "close");
  EXPECT_NEAR(m.seconds->median, 0.04, 1e-6);
  EXPECT_EQ(m.exposure, "");
  EXPECT_THAT(m.note, testing::HasSubstr("closed with CONNECTION_ID_LIMIT_ERROR after 1083"));

  auto through = ended(Ending::open, 9.0);
  through.h3 = clients::H3Record{};
  through.h3->frames_sent = 10'000;
  const MeasureHead reset{.id = "h3-rapid-reset", .kind = "h3-rapid-reset"};
  EXPECT_THAT(read_h3_flood(reset, {through}, 10'000, 0.25).exposure,
              testing::HasSubstr("all 10000 frames of the flood went through"));
  const MeasureHead ping{.id = "h3-ping-flood", .kind = "h3-ping-flood"};
  const auto bounded = read_h3_flood(ping, {through}, 10'000, 0.25);
  EXPECT_EQ(bounded.exposure, "");
  EXPECT_THAT(bounded.note, testing::HasSubstr("it need not"));

  auto stalled = through;
  stalled.h3->frames_sent = 100;
  stalled.h3->credit_stalled = true;
  stalled.h3->streams_opened = 100;
  const MeasureHead blocked{.id = "h3-qpack-blocked", .kind = "h3-qpack-blocked"};
  const auto refused = read_h3_flood(blocked, {stalled}, 10'000, 0.25);
  EXPECT_EQ(refused.exposure, "");
  EXPECT_THAT(refused.note, testing::HasSubstr("no credit for more after 100"));

  auto bombs = through;  // 9,999 of 10,000 bombs refused, the last one still in flight
  bombs.h3->streams_opened = 10'000;
  bombs.h3->streams_refused = 9'999;
  const MeasureHead bomb{.id = "h3-qpack-bomb", .kind = "h3-qpack-bomb"};
  const auto each_refused = read_h3_flood(bomb, {bombs}, 10'000, 0.25);
  EXPECT_EQ(each_refused.exposure, "");
  EXPECT_THAT(each_refused.note, testing::HasSubstr("every stream refused"));
  bombs.h3->streams_answered = 1;  // one bomb taken: the flood went through
  EXPECT_THAT(read_h3_flood(bomb, {bombs}, 10'000, 0.25).exposure,
              testing::HasSubstr("went through"));
}

}  // namespace
}  // namespace loiter::suites::survey
