// A held connection counts only once it has answered a first request and a re-check on the
// same connection while held; the client, not the server, ends it.
#include <gtest/gtest.h>

#include "drive.hpp"
#include "loiter/clients/http1/held_recheck.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

// A server that keeps the connection: both requests answered, the client closes at release.
TEST(HeldRecheck, AnswersBothRequestsAndTheClientClosesAtRelease) {
  Peer peer({.action = PeerAction::never_close, .answer = std::string(kOk200)});
  const auto start = Clock::now();
  const auto records =
      drive(spawn_held_recheck,
            HeldRecheckOptions{.fleet = {.target = peer.endpoint(),
                                         .count = 3,
                                         .patience = 2s,
                                         .pacing = {.start = start, .per_second = 100.0}},
                               .recheck_at = start + 150ms,
                               .release_at = start + 300ms});
  for (const auto& record : records) {
    ASSERT_EQ(record.responses.size(), 2u);
    EXPECT_EQ(record.responses[1].status, 200u);
    EXPECT_EQ(record.requests, 2u);
    EXPECT_EQ(record.ending, Ending::client_close);
    ASSERT_EQ(record.sends.size(), 2u);
    const auto rechecked = record.connect_start + record.connect_took + record.sends[1].at;
    EXPECT_TRUE(near(rechecked - start, 150ms));
  }
  EXPECT_TRUE(peer.wait_for_client_ends(3, 1s));
}

// A server that drops the held connection before the re-check: one response, server's close.
TEST(HeldRecheck, ServerEndingWhileHeldIsRecordedAsItsOwn) {
  Peer peer({.action = PeerAction::close, .after = 100ms, .answer = std::string(kOk200)});
  const auto start = Clock::now();
  const auto records =
      drive(spawn_held_recheck,
            HeldRecheckOptions{.fleet = {.target = peer.endpoint(),
                                         .count = 1,
                                         .patience = 2s,
                                         .pacing = {.start = start, .per_second = 100.0}},
                               .recheck_at = start + 400ms,
                               .release_at = start + 600ms});
  const auto& record = records.at(0);
  EXPECT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, peer_acted(peer, record)));
}

}  // namespace
}  // namespace loiter::clients
