// The client records exactly how and when a peer ended the connection: never a reset as a
// timeout, never a close as a reset. Times are checked within 20 ms of the peer's action.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loiter/clients/silent.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using testing::Peer;
using testing::PeerAction;
using testing::PeerScript;

constexpr auto kTolerance = 20ms;

ConnectionRecord observe_one(const Peer& peer, Duration patience) {
  asio::io_context io;
  std::vector<ConnectionRecord> records;
  spawn_silent(io, {.target = peer.endpoint(), .count = 1, .patience = patience}, records);
  io.run();
  return records.at(0);
}

void expect_ended_near(const ConnectionRecord& record, Duration at) {
  EXPECT_GE(record.ended_at, at - kTolerance) << "ended too early";
  EXPECT_LE(record.ended_at, at + kTolerance) << "ended too late";
}

TEST(Endings, PeerCloseIsRecordedAsCloseAtItsTime) {
  Peer peer({.action = PeerAction::close, .after = 150ms});
  const auto record = observe_one(peer, 2s);
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_FALSE(record.response.has_value());
  EXPECT_EQ(ending_label(record), "close");
  expect_ended_near(record, 150ms);
}

TEST(Endings, PeerResetIsRecordedAsResetNotAsTimeout) {
  Peer peer({.action = PeerAction::reset, .after = 150ms});
  const auto record = observe_one(peer, 2s);
  EXPECT_EQ(record.ending, Ending::reset);
  EXPECT_FALSE(record.error.empty());
  expect_ended_near(record, 150ms);
}

TEST(Endings, ResponseThenCloseKeepsTheParsedStatus) {
  Peer peer({.action = PeerAction::respond_then_close, .after = 100ms});
  const auto record = observe_one(peer, 2s);
  EXPECT_EQ(record.ending, Ending::close);
  ASSERT_TRUE(record.response.has_value());
  EXPECT_EQ(record.response->status, 408u);
  EXPECT_EQ(record.response->reason, "Request Timeout");
  EXPECT_EQ(ending_label(record), "408+close");
  ASSERT_TRUE(record.first_byte.has_value());
  EXPECT_NEAR(std::chrono::duration<double>(*record.first_byte).count(), 0.1, 0.02);
  expect_ended_near(record, 100ms);
}

TEST(Endings, ResponseThenResetIsBoth) {
  Peer peer({.action = PeerAction::respond_then_reset, .after = 100ms});
  const auto record = observe_one(peer, 2s);
  EXPECT_EQ(record.ending, Ending::reset);
  ASSERT_TRUE(record.response.has_value());
  EXPECT_EQ(ending_label(record), "408+reset");
}

TEST(Endings, PeerThatNeverClosesIsOpenWhenPatienceRunsOut) {
  Peer peer({.action = PeerAction::never_close});
  const auto record = observe_one(peer, 300ms);
  EXPECT_EQ(record.ending, Ending::open);
  expect_ended_near(record, 300ms);
}

TEST(Endings, NobodyListeningIsConnectFailed) {
  tcp::endpoint closed_port;
  {
    asio::io_context io;
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    closed_port = acceptor.local_endpoint();
  }
  asio::io_context io;
  std::vector<ConnectionRecord> records;
  spawn_silent(io, {.target = closed_port, .count = 1, .patience = 1s}, records);
  io.run();
  EXPECT_EQ(records.at(0).ending, Ending::connect_failed);
  EXPECT_THAT(records.at(0).error, ::testing::HasSubstr("refused"));
}

}  // namespace
}  // namespace loiter::clients
