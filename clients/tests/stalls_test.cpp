// Clients that stop mid-request send exactly the declared prefix, then only wait — or end
// the connection themselves, which the record never mistakes for the server's doing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "drive.hpp"
#include "loiter/clients/http1/fin_close.hpp"
#include "loiter/clients/http1/partial_body.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/rst_abort.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

class PartialHeaderStall : public ::testing::TestWithParam<StallPoint> {};

// The server receives exactly the prefix up to the stall point, and nothing after it.
TEST_P(PartialHeaderStall, SendsExactlyTheDeclaredPrefixThenWaits) {
  Peer peer({.action = PeerAction::close, .after = 150ms});
  const auto records =
      drive(spawn_partial_header,
            PartialHeaderOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                                 .stall = GetParam()});
  const auto expected = partial_head({}, GetParam());
  EXPECT_EQ(peer.connections().at(0).received(), expected);
  const auto& record = records.at(0);
  EXPECT_EQ(record.sends.size(), expected.empty() ? 0u : 1u);
  if (!expected.empty()) {
    EXPECT_EQ(record.sends[0].bytes, expected.size());
  }
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, peer_acted(peer, record)));  // 150 ms, or the peer's lateness
}

INSTANTIATE_TEST_SUITE_P(EveryStallPoint, PartialHeaderStall,
                         ::testing::Values(StallPoint::nothing, StallPoint::request_line,
                                           StallPoint::mid_header_name,
                                           StallPoint::mid_header_value,
                                           StallPoint::before_final_crlf),
                         [](const auto& param_info) {
                           std::string name(to_string(param_info.param));
                           std::ranges::replace(name, '-', '_');
                           return name;
                         });

// A stalled body: the whole head, then only the declared part of the body; a 408 from the
// server is kept as the ending's response.
TEST(PartialBody, SendsTheHeadAndPartOfTheBodyThenWaits) {
  Peer peer({.action = PeerAction::respond_then_close, .after = 150ms});
  const auto records =
      drive(spawn_partial_body,
            PartialBodyOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                               .content_length = 64,
                               .body_sent = 32});
  const auto received = peer.connections().at(0).received();
  const auto head = request_head({.method = "POST", .path = "/echo", .content_length = 64});
  EXPECT_EQ(received, head + request_body(64, 32));
  EXPECT_THAT(received, ::testing::HasSubstr("Content-Length: 64\r\n"));
  const auto& record = records.at(0);
  EXPECT_EQ(record.requests, 0u);
  EXPECT_EQ(ending_label(record), "408+close");
  EXPECT_TRUE(near(record.ended_at, peer_acted(peer, record)));
}

// rst-abort ends with the client's own RST at its time: the server sees a reset.
TEST(RstAbort, AbortsWithAnRstAndRecordsItAsTheClients) {
  Peer peer({.action = PeerAction::never_close});
  const auto records =
      drive(spawn_rst_abort,
            RstAbortOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                            .abort_after = 100ms});
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  EXPECT_EQ(seen.received(), partial_head({}, StallPoint::mid_header_value));
  EXPECT_THAT(seen.client_ending, ::testing::HasSubstr("reset"));
  const auto& record = records.at(0);
  EXPECT_EQ(record.ending, Ending::client_abort);
  EXPECT_EQ(ending_label(record), "client-abort");
  EXPECT_TRUE(near(record.ended_at, 100ms));
  // The server saw the reset when the record says it went. Both from the client's connect,
  // not from the peer's accept: a client whose connect handler ran late starts its 100 ms
  // late (120 ms from the accept, beside busy loops), and its record says so.
  EXPECT_TRUE(near(*seen.client_ended - record.connected(), record.ended_at));
}

// If the server ends it before the abort, that is what the record says.
TEST(RstAbort, ServerEndingFirstIsRecordedAsTheServers) {
  Peer peer({.action = PeerAction::close, .after = 50ms});
  const auto records =
      drive(spawn_rst_abort,
            RstAbortOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                            .abort_after = 200ms});
  EXPECT_EQ(records.at(0).ending, Ending::close);
  EXPECT_TRUE(near(records.at(0).ended_at, 50ms));
}

// fin-close ends with the client's FIN mid-request: the server reads an EOF.
TEST(FinClose, ClosesNormallyMidRequestAndRecordsItAsTheClients) {
  Peer peer({.action = PeerAction::never_close});
  const auto records =
      drive(spawn_fin_close,
            FinCloseOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                            .stall = StallPoint::request_line,
                            .close_after = 100ms});
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  EXPECT_EQ(seen.received(), partial_head({}, StallPoint::request_line));
  EXPECT_EQ(seen.client_ending, "eof");
  const auto& record = records.at(0);
  EXPECT_EQ(record.ending, Ending::client_close);
  EXPECT_TRUE(near(record.ended_at, 100ms));
  // The server read the EOF when the record says the FIN went (from the client's connect,
  // as in RstAbort above).
  EXPECT_TRUE(near(*seen.client_ended - record.connected(), record.ended_at));
}

}  // namespace
}  // namespace loiter::clients
