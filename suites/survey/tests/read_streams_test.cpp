// The survey's reading of a stalled stream's records (HTTP/2, HTTP/3) and of an HTTP/3
// bracket's: each rule on canned records, so each can fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_streams.hpp"

namespace loiter::suites::survey {
namespace read_streams_test {

using clients::ConnectionRecord;
using clients::Ending;

clients::Duration s(double seconds) {
  return std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(seconds));
}

const MeasureHead kHead{.id = "h3-idle", .title = "idle", .kind = "h3-idle", .from = "last"};

// An h3-idle connection whose last packet was at 0.1 s, probed `probe` s after it: answered
// (held) or not (gone).
ConnectionRecord idle(double probe, bool answered) {
  ConnectionRecord r;
  r.kind = "h3-idle";
  r.connect_start = clients::Clock::now();
  clients::H3Record h3{.handshake_done = s(0.05), .idle_advertised = s(2), .last_sent = s(0.1)};
  h3.probes.push_back({.at = s(0.1 + probe)});
  if (answered) {
    h3.probes.back().answered = s(0.1 + probe + 0.001);
    r.ending = Ending::open;
  } else {
    r.ending = Ending::gone;
    r.ended_at = s(0.1 + probe);
  }
  r.h3 = h3;
  return r;
}

TEST(ReadBracket, HeldAndGoneBracketTheDeadlineFromEachConnectionsLastPacket) {
  const std::vector<ConnectionRecord> records = {idle(0.75, true), idle(1.5, true),
                                                 idle(3, false)};
  const auto m = read_bracket(kHead, records, BracketFrom::last_packet, 0.25);
  EXPECT_EQ(to_string(m.ending), "gone");
  ASSERT_TRUE(m.seconds);
  EXPECT_NEAR(m.seconds->min, 1.5, 1e-6);
  EXPECT_NEAR(m.seconds->max, 3.0, 1e-6);
  EXPECT_NEAR(m.seconds->median, 2.25, 1e-6);
  EXPECT_EQ(m.agreed, 3u);
  EXPECT_EQ(m.connections, 3u);
  EXPECT_EQ(m.advertised, 2.0);
  EXPECT_THAT(m.note, testing::HasSubstr("still held at 1.50 s, gone at 3.00 s"));
}

TEST(ReadBracket, ASecondPhaseNarrowsTheFirstsBracketAndAnswersThatDisagreeAreSaid) {
  const std::vector<ConnectionRecord> records = {idle(1.75, true), idle(2.0, false),
                                                 idle(2.25, true)};
  const auto m = read_bracket(kHead, records, BracketFrom::last_packet, 0.25,
                              reports::Spread{.min = 1.5, .median = 2.25, .max = 3});
  ASSERT_TRUE(m.seconds);
  EXPECT_NEAR(m.seconds->min, 1.75, 1e-6);
  EXPECT_NEAR(m.seconds->max, 2.0, 1e-6);
  EXPECT_EQ(m.agreed, 2u);  // held at 2.25 s after gone at 2.0 s
  EXPECT_THAT(m.note, testing::HasSubstr("1 connection was still held later than that"));
}

TEST(ReadBracket, HeldByEveryProbeIsOpenWithoutATime) {
  const auto m = read_bracket(kHead, {idle(0.75, true), idle(1.5, true)},
                              BracketFrom::last_packet, 0.25);
  EXPECT_EQ(to_string(m.ending), "open");
  EXPECT_FALSE(m.seconds);
  EXPECT_THAT(m.note, testing::HasSubstr("still held at 1.50 s"));
}

TEST(ReadBracket, ACloseTheServerSentIsTimedNotBracketed) {
  std::vector<ConnectionRecord> records;
  for (const double at : {2.0, 2.01, 2.02}) {
    auto r = idle(5, true);
    r.h3->probes.clear();
    r.h3->last_sent.reset();
    r.h3->close = clients::H3Close{.at = s(0.05 + at), .code = 0, .application = false};
    r.ending = Ending::close;
    r.ended_at = s(0.05 + at);
    records.push_back(r);
  }
  const auto m = read_bracket(kHead, records, BracketFrom::last_packet, 0.25);
  EXPECT_EQ(to_string(m.ending), "close");
  ASSERT_TRUE(m.seconds);
  EXPECT_NEAR(m.seconds->median, 2.01, 1e-6);  // from the handshake's end
  EXPECT_THAT(m.note, testing::HasSubstr("CONNECTION_CLOSE NO_ERROR (3)"));
}

TEST(ReadBracket, AHalfOpenConnectionIsHeldWhenRememberedAndGoneWhenForgottenOrSilent) {
  const auto initial = [](double probe, clients::H3Remembered remembered) {
    ConnectionRecord r;
    r.connect_start = clients::Clock::now();
    clients::H3Record h3{.remembered = remembered};
    h3.probes.push_back({.at = s(probe)});
    r.h3 = h3;
    r.ending =
        remembered == clients::H3Remembered::remembered ? Ending::open : Ending::gone;
    return r;
  };
  const auto m = read_bracket(
      {.id = "h3-handshake"},
      {initial(1, clients::H3Remembered::remembered), initial(2, clients::H3Remembered::forgotten),
       initial(4, clients::H3Remembered::silent)},
      BracketFrom::first_initial, 0.25);
  ASSERT_TRUE(m.seconds);
  EXPECT_NEAR(m.seconds->min, 1, 1e-6);
  EXPECT_NEAR(m.seconds->max, 2, 1e-6);
  EXPECT_FALSE(m.advertised);
}

TEST(BracketDone, OnceGoneAndEveryEarlierProbeAnswered) {
  const std::vector<double> ladder = {0.75, 1.5, 3, 6};
  auto waiting = idle(1.5, true);
  waiting.h3->probes.clear();  // its probe not sent yet
  std::vector<ConnectionRecord> records = {idle(0.75, true), waiting, idle(3, false),
                                           ConnectionRecord{}};
  EXPECT_FALSE(bracket_done(records, ladder));
  records[1] = idle(1.5, true);
  EXPECT_TRUE(bracket_done(records, ladder));  // 6 s need not be waited for
  records[2] = idle(3, true);
  EXPECT_FALSE(bracket_done(records, ladder));  // nothing gone yet
}

TEST(Ladders, DoubleFromThreeQuartersAndNarrowToTheSlack) {
  EXPECT_THAT(first_ladder(120), testing::ElementsAre(0.75, 1.5, 3, 6, 12, 24, 48, 96));
  EXPECT_THAT(first_ladder(4), testing::ElementsAre(0.75, 1.5, 3));
  const auto narrow = refined_ladder(1.5, 3, 3, 0.25);  // 5 rungs bring 1.5 s under 0.25 s
  ASSERT_EQ(narrow.size(), 5u);
  EXPECT_NEAR(narrow.front(), 1.75, 1e-9);
  EXPECT_NEAR(narrow.back(), 2.75, 1e-9);
  EXPECT_EQ(refined_ladder(0.75, 1.5, 5, 0.25).size(), 5u);  // at least the connections asked
  EXPECT_EQ(refined_ladder(48, 96, 5, 0.25).size(), 24u);    // at most 24
}

TEST(StreamEnd, TheServersFirstActOnTheStreamFromItsOpenNotTheClientsCloseAfterIt) {
  ConnectionRecord r;
  r.sends.push_back({.at = s(0.1)});
  clients::H3Record h3;
  h3.stream_ends.push_back({.at = s(2.1), .stream = 0, .code = 0x10d});
  r.h3 = h3;
  r.ending = Ending::client_close;
  r.ended_at = s(2.11);
  auto t = stream_end(r);
  EXPECT_EQ(to_string(t.ending), "rst-stream");
  EXPECT_NEAR(t.seconds.value(), 2.0, 1e-6);
  EXPECT_EQ(h3_codes({r}), "RESET_STREAM H3_REQUEST_INCOMPLETE (1)");
  r.responses.push_back({.status = 408, .started = s(1.9), .complete = s(1.95)});
  t = stream_end(r);
  EXPECT_EQ(to_string(t.ending), "408+rst-stream");
  EXPECT_NEAR(t.seconds.value(), 1.85, 1e-6);
  ConnectionRecord open;
  open.sends.push_back({.at = s(0.1)});
  open.ending = Ending::open;
  EXPECT_EQ(to_string(stream_end(open).ending), "open");
  EXPECT_FALSE(stream_end(open).seconds);
}

TEST(StreamEnd, OverHttp2ARstStreamOrAGoawayBeforeTheClose) {
  ConnectionRecord r;
  r.sends.push_back({.at = s(0.2)});
  clients::H2Record h2;
  h2.goaway = clients::H2Goaway{.at = s(1.2)};
  r.h2 = h2;
  r.ending = Ending::close;
  r.ended_at = s(2.2);
  auto t = stream_end(r);
  EXPECT_EQ(to_string(t.ending), "goaway+close");
  EXPECT_NEAR(t.seconds.value(), 1.0, 1e-6);
  r.h2->resets.push_back({.at = s(1.1)});
  EXPECT_EQ(to_string(stream_end(r).ending), "rst-stream");
}

}  // namespace read_streams_test
}  // namespace loiter::suites::survey
