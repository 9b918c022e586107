// The floods stop by themselves: at the server's GOAWAY (noting how many frames had gone
// out), at their frame count, at their duration; the control client keeps a latency for
// each answered request. Against a scripted h2 peer (h2_flood_peer.hpp).
#include "loiter/clients/h2/floods.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "drive.hpp"
#include "h2_flood_peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;
using Spawn = void (*)(asio::io_context&, const FloodOptions&, std::vector<ConnectionRecord>&);

// The client's SETTINGS and WINDOW_UPDATE, and its ACK of the peer's SETTINGS.
constexpr std::size_t kOpening = 3;

struct Kind {
  std::string_view name;
  Spawn spawn;
};

class EveryFlood : public ::testing::TestWithParam<Kind> {};

// A GOAWAY after the client's 300th frame stops the flood long before its count (which
// loopback's buffers let it run well past the 300th): the record has the GOAWAY's code and
// the frames sent when it was read.
TEST_P(EveryFlood, StopsAtTheServersGoaway) {
  H2FloodPeer peer({.goaway_after = 300, .goaway_code = 0xb});
  const auto records =
      drive(GetParam().spawn,
            FloodOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 3s},
                         .duration = 3s,
                         .frames = 200'000,
                         .batch = 50,
                         .header_bytes = 16});
  ASSERT_EQ(records.size(), 1u);
  const auto& r = records[0];
  EXPECT_EQ(r.kind, GetParam().name);
  ASSERT_TRUE(r.h2 && r.h2->goaway) << to_string(r.ending) << " " << r.error;
  EXPECT_EQ(r.h2->goaway->code, 0xbu);
  EXPECT_GE(r.h2->goaway->frames_sent, 300u);
  EXPECT_LE(r.h2->goaway->frames_sent, r.h2->frames_sent);
  EXPECT_LT(r.h2->frames_sent, 200'000u);
  EXPECT_EQ(r.ending, Ending::close);
  EXPECT_LT(r.ended_at, 2s);
}

// Without a GOAWAY the flood stops at its frame count: the peer saw exactly those frames.
TEST_P(EveryFlood, StopsAtItsFrameCount) {
  H2FloodPeer peer({});
  const auto records =
      drive(GetParam().spawn,
            FloodOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 500ms},
                         .duration = 500ms,
                         .frames = 400,
                         .batch = 64});
  ASSERT_TRUE(peer.wait_for_client_ends(1, scaled(2s)));
  const auto& r = records.at(0);
  // The flood's 400 and the SETTINGS ACK it owes, not the opening's SETTINGS and
  // WINDOW_UPDATE; the continuation flood owes nothing (no ACK inside a header block).
  const std::size_t acks = GetParam().name == kH2ContinuationFlood ? 0 : 1;
  EXPECT_EQ(r.h2->frames_sent, 400u + acks);
  EXPECT_EQ(peer.connections().at(0).frames, 400u + kOpening - 1 + acks);
  EXPECT_FALSE(r.h2->goaway);
  EXPECT_EQ(r.ending, Ending::client_close);
}

// With a count it cannot reach, the flood stops at its duration, then at patience closes.
TEST_P(EveryFlood, StopsAtItsDuration) {
  H2FloodPeer peer({});
  const auto started = Clock::now();
  const auto records =
      drive(GetParam().spawn,
            FloodOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 400ms},
                         .duration = 300ms,
                         .frames = 100'000'000,
                         .batch = 10});
  ASSERT_TRUE(peer.wait_for_client_ends(1, scaled(2s)));
  const auto& r = records.at(0);
  EXPECT_LT(r.h2->frames_sent, 100'000'000u);
  const auto peer_saw = peer.connections().at(0);
  ASSERT_TRUE(peer_saw.last_frame);
  EXPECT_LT(*peer_saw.last_frame - started, 300ms + kTolerance + scaled(50ms));
  EXPECT_TRUE(near(r.ended_at, 400ms));
  EXPECT_EQ(r.ending, Ending::client_close);
}

INSTANTIATE_TEST_SUITE_P(Floods, EveryFlood,
                         ::testing::Values(Kind{kH2RapidReset, spawn_h2_rapid_reset},
                                           Kind{kH2ContinuationFlood, spawn_h2_continuation_flood},
                                           Kind{kH2SettingsFlood, spawn_h2_settings_flood},
                                           Kind{kH2PingFlood, spawn_h2_ping_flood}),
                         [](const auto& param_info) {
                           std::string name(param_info.param.name.substr(3));
                           std::erase(name, '-');
                           return name;
                         });

// One flood by `spawn` of `frames` frames (within 300 ms) against a peer; `seen` is what the
// peer saw of it once the client ended it.
void flood_once(Spawn spawn, std::size_t frames, FloodPeerConnection& seen) {
  H2FloodPeer peer({});
  drive(spawn, FloodOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 300ms},
                            .duration = 300ms,
                            .frames = frames});
  ASSERT_TRUE(peer.wait_for_client_ends(1, scaled(2s)));
  seen = peer.connections().at(0);
}

// Rapid reset opens and cancels a new stream each pair: HEADERS and RST_STREAM alike.
TEST(RapidReset, SendsAsManyResetsAsHeaders) {
  FloodPeerConnection seen;
  ASSERT_NO_FATAL_FAILURE(flood_once(spawn_h2_rapid_reset, 200, seen));
  EXPECT_EQ(seen.by_type[1], 100u);  // HEADERS
  EXPECT_EQ(seen.by_type[3], 100u);  // RST_STREAM
  EXPECT_TRUE(seen.preface);
}

// The continuation flood sends one HEADERS, then only CONTINUATION frames.
TEST(ContinuationFlood, SendsOneHeadersThenContinuations) {
  FloodPeerConnection seen;
  ASSERT_NO_FATAL_FAILURE(flood_once(spawn_h2_continuation_flood, 300, seen));
  EXPECT_EQ(seen.by_type[1], 1u);    // HEADERS
  EXPECT_EQ(seen.by_type[9], 299u);  // CONTINUATION
}

// The control client sends one GET an interval and keeps each answered one's latency.
TEST(Control, KeepsALatencyForEachAnsweredRequest) {
  H2FloodPeer peer({.answer = true});
  const auto records =
      drive(spawn_h2_control,
            FloodOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 1s},
                         .duration = 200ms,
                         .interval = 20ms});
  const auto& r = records.at(0);
  EXPECT_EQ(r.requests, 10u);
  EXPECT_EQ(complete_responses(r), 10u);
  ASSERT_EQ(r.h2->latencies.size(), 10u);
  for (const auto latency : r.h2->latencies) {
    EXPECT_GE(latency, Duration::zero());
    EXPECT_LT(latency, scaled(250ms));  // a loopback peer, on a machine that may be busy
  }
  EXPECT_EQ(r.ending, Ending::client_close);
}

}  // namespace
}  // namespace loiter::clients
