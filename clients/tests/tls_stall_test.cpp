// The handshake stalls, against a plain TCP peer: each sends exactly its part of a real
// ClientHello (the trickle at its pace, never the whole hello), then only waits, and its
// record says how far the handshake got.
#include "loiter/clients/tls/tls_stall.hpp"

#include <gtest/gtest.h>

#include "drive.hpp"
#include "loiter/clients/tls/client_hello.hpp"
#include "peer.hpp"
#include "trickle_checks.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

TlsStallOptions stall_options(const Peer& peer, Duration patience) {
  return {.fleet = {.target = peer.endpoint(), .count = 1, .patience = patience}};
}

// The 5-byte record header of the hello, then nothing until the server closes.
TEST(TlsRecordHeader, SendsTheHellosRecordHeaderThenWaits) {
  Peer peer({.action = PeerAction::close, .after = 150ms});
  const auto records = drive(spawn_tls_record_header, stall_options(peer, 2s));
  const auto received = peer.connections().at(0).received();
  ASSERT_EQ(received.size(), kTlsRecordHeaderSize);
  EXPECT_EQ(static_cast<unsigned char>(received[0]), kTlsHandshakeRecord);
  EXPECT_EQ(static_cast<unsigned char>(received[1]), 0x03);
  EXPECT_GT(tls_record_length(received), 0u);
  const auto& record = records.at(0);
  ASSERT_EQ(record.sends.size(), 1u);
  EXPECT_EQ(record.sends[0].bytes, kTlsRecordHeaderSize);
  ASSERT_TRUE(record.tls.has_value());
  EXPECT_EQ(record.tls->handshake_sent, kTlsRecordHeaderSize);
  EXPECT_FALSE(record.tls->handshake_done.has_value());
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, peer_acted(peer, record)));
}

// Half of the given hello in one send, then only waiting until patience runs out.
TEST(TlsHalfHello, SendsHalfTheHelloThenWaitsOutItsPatience) {
  Peer peer({.action = PeerAction::never_close});
  auto options = stall_options(peer, 200ms);
  options.hello = client_hello({});
  const auto records = drive(spawn_tls_half_hello, options);
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  EXPECT_EQ(peer.connections().at(0).received(), options.hello.substr(0, options.hello.size() / 2));
  const auto& record = records.at(0);
  ASSERT_TRUE(record.tls.has_value());
  EXPECT_EQ(record.tls->handshake_sent, options.hello.size() / 2);
  EXPECT_EQ(record.ending, Ending::open);
  EXPECT_TRUE(near(record.ended_at, 200ms));
}

// The hello a byte per interval from its first byte, each a send of its own.
TEST(TlsHelloTrickle, SendsOneHelloBytePerInterval) {
  Peer peer({.action = PeerAction::never_close});
  auto options = stall_options(peer, 190ms);
  options.hello = client_hello({});
  options.interval = 40ms;
  const auto records = drive(spawn_tls_hello_trickle, options);
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  const auto& record = records.at(0);
  // The first byte on connect, then one at 40, 80, 120 and 160 ms (connection 0's phase: 1).
  ASSERT_EQ(record.sends.size(), 5u);
  EXPECT_EQ(seen.received(), options.hello.substr(0, 5));
  for (std::size_t i = 1; i < record.sends.size(); ++i) {
    EXPECT_EQ(record.sends[i].bytes, 1u);
    EXPECT_TRUE(near(record.sends[i].at - record.sends[i - 1].at, 40ms));
  }
  ASSERT_TRUE(record.tls.has_value());
  EXPECT_EQ(record.tls->handshake_sent, 5u);
  EXPECT_EQ(record.ending, Ending::open);
}

// However long the patience, the trickle stops one byte short of the whole hello.
TEST(TlsHelloTrickle, NeverSendsTheWholeHello) {
  Peer peer({.action = PeerAction::never_close});
  auto options = stall_options(peer, 300ms);
  options.hello = std::string("\x16\x03\x01\x00\x03\x01\x00\x00", 8);  // a tiny stand-in
  options.interval = 10ms;
  const auto records = drive(spawn_tls_hello_trickle, options);
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  EXPECT_EQ(peer.connections().at(0).received(), options.hello.substr(0, 7));
  EXPECT_EQ(records.at(0).tls->handshake_sent, 7u);
}

// When the server closes mid-trickle, the trickle stops and the close is recorded.
TEST(TlsHelloTrickle, StopsWhenTheServerCloses) {
  expect_trickle_stops_at_the_close(spawn_tls_hello_trickle, TlsStallOptions{});
}

// The completed-handshake stall needs the fleet's TLS: without it, it refuses to start.
TEST(TlsHandshakeSilent, RefusesToRunWithoutTls) {
  Peer peer({.action = PeerAction::close});
  asio::io_context io;
  std::vector<ConnectionRecord> records;
  EXPECT_THROW(spawn_tls_handshake_silent(io, stall_options(peer, 1s), records),
               std::invalid_argument);
}

}  // namespace
}  // namespace loiter::clients
