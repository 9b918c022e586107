// Trickling clients send one byte per interval on their own timeline from their connect,
// keep reading meanwhile, and many of them never send on the same tick.
#include <gtest/gtest.h>

#include <algorithm>

#include "drive.hpp"
#include "loiter/clients/http1/body_trickle.hpp"
#include "loiter/clients/http1/header_trickle.hpp"
#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/transport/fleet.hpp"
#include "peer.hpp"
#include "trickle_checks.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

// When each byte after the first `skip` (the part sent at once) arrived at the peer.
std::vector<Clock::time_point> trickled(const PeerConnection& seen, std::size_t skip) {
  std::vector<Clock::time_point> times;
  std::size_t offset = 0;
  for (const auto& arrival : seen.arrivals) {
    for (std::size_t i = 0; i < arrival.bytes.size(); ++i, ++offset) {
      if (offset >= skip) times.push_back(arrival.at);
    }
  }
  return times;
}

const std::size_t kLine = partial_head({}, StallPoint::request_line).size();

// The request line at once, then header bytes one per interval, never the end of the head.
TEST(HeaderTrickle, SendsOneHeaderBytePerInterval) {
  Peer peer({.action = PeerAction::never_close});
  const auto records = drive(
      spawn_header_trickle,
      HeaderTrickleOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 300ms},
                           .interval = 40ms,
                           .max_bytes = 5});
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  const auto line = partial_head({}, StallPoint::request_line);
  EXPECT_EQ(seen.received(), line + header_lines({}).substr(0, 5));
  const auto times = trickled(seen, kLine);
  ASSERT_EQ(times.size(), 5u);
  for (std::size_t i = 1; i < times.size(); ++i) EXPECT_TRUE(near(times[i] - times[i - 1], 40ms));
  const auto& record = records.at(0);
  EXPECT_EQ(record.sends.size(), 6u);
  EXPECT_EQ(record.ending, Ending::open);
  EXPECT_TRUE(near(record.ended_at, 300ms));
}

// Past the head's own lines the trickle goes on with filler lines, never an empty line.
TEST(HeaderTrickle, NeverEndsTheHead) {
  const auto lines = header_lines({});
  std::string sent;
  for (std::size_t k = 0; k < 500; ++k) sent += header_trickle_byte(lines, k);
  EXPECT_EQ(sent.substr(0, lines.size()), lines);
  EXPECT_EQ(sent.find("\r\n\r\n"), std::string::npos);
}

// When the server closes mid-trickle, the trickle stops and the close is recorded.
TEST(HeaderTrickle, StopsWhenTheServerCloses) {
  expect_trickle_stops_at_the_close(spawn_header_trickle, HeaderTrickleOptions{});
}

// A whole head, then the body byte by byte: the request completes with the last byte.
TEST(BodyTrickle, SendsTheBodyOneBytePerInterval) {
  Peer peer({.action = PeerAction::never_close});
  const auto records =
      drive(spawn_body_trickle,
            BodyTrickleOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 300ms},
                               .interval = 30ms,
                               .content_length = 5});
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  const auto head = request_head({.method = "POST", .path = "/echo", .content_length = 5});
  EXPECT_EQ(seen.received(), head + request_body(5, 5));
  const auto times = trickled(seen, head.size());
  ASSERT_EQ(times.size(), 5u);
  for (std::size_t i = 1; i < times.size(); ++i) EXPECT_TRUE(near(times[i] - times[i - 1], 30ms));
  EXPECT_EQ(records.at(0).requests, 1u);
  EXPECT_EQ(records.at(0).sends.size(), 6u);
}

// 50 connections opened at once still trickle spread over the interval, not in a burst:
// each connection's schedule is offset from its own connect by its slot's phase. Held to
// the schedule at any speed: no byte sent before its own due time, and the due times of
// all 50 spread (about 2.5 in any 5 ms; a burst would put 50). How soon after its due time
// a byte goes is the machine's: beside a busy loop per core the peer saw gaps far from
// 100 ms and 15 bytes in 5 ms, the starved client catching up.
TEST(Pacing, TricklesOfManyConnectionsAreSpreadNotClustered) {
  Peer peer({.action = PeerAction::never_close});
  constexpr std::size_t kConnections = 50;
  constexpr auto kInterval = 100ms;
  const auto records =
      drive(spawn_header_trickle, HeaderTrickleOptions{.fleet = {.target = peer.endpoint(),
                                                                 .count = kConnections,
                                                                 .patience = 1s,
                                                                 .pacing = {.per_second = 20'000}},
                                                       .interval = kInterval,
                                                       .max_bytes = 3});
  ASSERT_TRUE(peer.wait_for_client_ends(kConnections, 3s));
  ASSERT_EQ(records.size(), kConnections);
  std::vector<Clock::time_point> due;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& record = records[i];
    const Schedule schedule{
        .connected = record.connected(), .interval = kInterval, .phase = spread_phase(i)};
    ASSERT_EQ(record.sends.size(), 4u) << "the request line and 3 bytes, connection " << i;
    for (std::size_t k = 1; k < record.sends.size(); ++k) {
      EXPECT_GE(record.connected() + record.sends[k].at, schedule.at(k - 1))
          << "byte " << k << " of connection " << i << " sent before it was due";
      due.push_back(schedule.at(k - 1));
    }
  }
  std::ranges::sort(due);
  std::size_t most_in_5ms = 0;
  for (auto first = due.begin(); first != due.end(); ++first) {
    const auto last = std::upper_bound(first, due.end(), *first + 5ms);
    most_in_5ms = std::max(most_in_5ms, static_cast<std::size_t>(last - first));
  }
  EXPECT_LE(most_in_5ms, 10u);
}

// The fleet opens connections on an absolute timeline at the asked rate.
TEST(Pacing, ConnectionsOpenAtTheAskedRate) {
  Peer peer({.action = PeerAction::close, .after = 0ms});
  const auto records =
      drive(spawn_header_trickle, HeaderTrickleOptions{.fleet = {.target = peer.endpoint(),
                                                                 .count = 20,
                                                                 .patience = 1s,
                                                                 .pacing = {.per_second = 200}},
                                                       .interval = 1s});
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto gap = records[i].connect_start - records[i - 1].connect_start;
    EXPECT_TRUE(near(gap, 5ms));
  }
}

}  // namespace
}  // namespace loiter::clients
