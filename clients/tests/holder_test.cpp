// The holder keeps connections of a kind at a count: every one the server closes is replaced,
// within its bound of connects, nothing is opened after its end, and stop() closes what it
// holds.
#include "loiter/clients/holder.hpp"

#include <gtest/gtest.h>

#include "loiter/testing/wait.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace holder_test {

using namespace std::chrono_literals;
using testing::Peer;
using testing::PeerAction;

HolderPlan silent_plan(const tcp::endpoint& to, std::size_t count, Clock::duration hold) {
  return {.kind = find_client_kind("silent"),
          .fleet = {.target = to, .count = count, .pacing = {.per_second = 1000}},
          .until = Clock::now() + hold,
          .look = 20ms};
}

TEST(Holder, KeepsConnectionsTheServerHoldsOpenAtTheCount) {
  Peer peer({.action = PeerAction::never_close});
  Holder holder(silent_plan(peer.endpoint(), 8, 5s));
  EXPECT_TRUE(loiter::testing::wait_for([&] { return holder.figures().open == 8; },
                                        "8 held connections open", 3s, 10ms));
  const auto figures = holder.figures();
  EXPECT_TRUE(figures.reached);
  EXPECT_EQ(figures.opened, 8U);
  EXPECT_EQ(figures.reopened, 0U);
  holder.stop();
  // Its stop closed every one of them: the peer saw each client's end.
  EXPECT_TRUE(peer.wait_for_client_ends(8, 3s));
}

TEST(Holder, ReplacesEveryConnectionTheServerCloses) {
  Peer peer({.action = PeerAction::close, .after = 50ms});
  Holder holder(silent_plan(peer.endpoint(), 4, 5s));
  // Each closed after 50 ms and replaced: more accepted than held, every one counted.
  EXPECT_TRUE(loiter::testing::wait_for([&] { return holder.figures().reopened >= 12; },
                                        "12 replacements", 3s, 10ms));
  const auto figures = holder.figures();
  EXPECT_EQ(figures.opened, 4 + figures.reopened);
  EXPECT_EQ(figures.connect_failures, 0U);
  EXPECT_GE(figures.ended, figures.reopened);
  holder.stop();
  // Every one that ended was one the peer accepted and closed: a connection of its own.
  EXPECT_GE(peer.connections().size(), figures.ended);
}

TEST(Holder, StopsReplacingAtItsBoundOfConnects) {
  Peer peer({.action = PeerAction::close, .after = 10ms});
  auto plan = silent_plan(peer.endpoint(), 2, 5s);
  plan.most_opened = 6;
  Holder holder(plan);
  EXPECT_TRUE(loiter::testing::wait_for([&] { return holder.figures().exhausted; },
                                        "the bound reached", 3s, 10ms));
  EXPECT_EQ(holder.figures().opened, 6U);
  holder.stop();
  EXPECT_EQ(holder.figures().opened, 6U);
}

TEST(Holder, OpensNothingAfterItsEnd) {
  Peer peer({.action = PeerAction::close, .after = 10ms});
  // Its end already come: the first two are opened (and closed by the peer), none replaced.
  Holder holder(silent_plan(peer.endpoint(), 2, 0s));
  EXPECT_TRUE(loiter::testing::wait_for([&] { return holder.figures().ended == 2; },
                                        "both ended", 3s, 10ms));
  const auto figures = holder.figures();
  EXPECT_EQ(figures.opened, 2U);
  EXPECT_EQ(figures.reopened, 0U);
  holder.stop();
}

TEST(Holder, WaitsForTheCountOpenAndKeepsTheFewestOpenSinceItsMark) {
  Peer peer({.action = PeerAction::close, .after = 200ms});
  Holder holder(silent_plan(peer.endpoint(), 6, 5s));
  const auto figures = holder.wait_for_open(6, Clock::now() + 3s);
  ASSERT_EQ(figures.open, 6U);
  holder.mark_low();
  EXPECT_EQ(holder.figures().open_low, 6U);
  // The peer closes them all 200 ms after their accept: some look sees fewer open.
  EXPECT_TRUE(loiter::testing::wait_for([&] { return holder.figures().open_low < 6; },
                                        "a look with fewer open", 3s, 10ms));
  // A count never reached: the wait ends at its deadline, and says what was open.
  const auto until = Clock::now() + 100ms;
  EXPECT_LT(holder.wait_for_open(100, until).open, 100U);
  EXPECT_GE(Clock::now(), until);
  // Cancelled: it does not wait for the deadline.
  const auto asked = Clock::now();
  holder.wait_for_open(100, asked + 3s, [] { return true; });
  EXPECT_LT(Clock::now() - asked, 1s);
  holder.stop();
}

TEST(Holder, RefusesWhatItCannotHold) {
  Peer peer({.action = PeerAction::never_close});
  EXPECT_THROW(Holder({.fleet = {.target = peer.endpoint(), .count = 1}}), std::invalid_argument);
  EXPECT_THROW(Holder(silent_plan(peer.endpoint(), 0, 1s)), std::invalid_argument);
  // TEST-NET-1 (RFC 5737, documentation only): refused before anything connects.
  auto remote = silent_plan({asio::ip::make_address("192.0.2.1"), 80}, 1, 1s);
  EXPECT_THROW(Holder{remote}, std::invalid_argument);
}

}  // namespace holder_test
}  // namespace loiter::clients
