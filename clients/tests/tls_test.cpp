// Client connections over TLS: the handshake is recorded, a request gets its answer through
// the session, and the server's endings during and after the handshake are told apart
// (close, alert with its code), with times from the client's own TCP connect.
#include "loiter/clients/transport/tls.hpp"

#include <gtest/gtest.h>

#include "drive.hpp"
#include "loiter/clients/http1/fin_close.hpp"
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/load/load.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "tls_peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

const TlsClient& tls_client() {
  static const TlsClient client =
      make_tls_client({.alpn = {"http/1.1"}, .server_name = "localhost"});
  return client;
}

ConnectionRecord idle_keepalive_over_tls(const TlsPeer& peer, Duration patience,
                                         Duration connect_timeout = 2s) {
  auto options = IdleKeepaliveOptions{.fleet = {.target = peer.endpoint(),
                                                .count = 1,
                                                .patience = patience,
                                                .connect_timeout = connect_timeout}};
  options.fleet.tls = tls_client();
  return drive(spawn_idle_keepalive, options).at(0);
}

// A request over TLS gets its 200; the record has the handshake (when, bytes, version,
// ALPN) and counts only the decrypted response as received bytes.
TEST(Tls, RequestOverTlsGetsItsOkAndTheRecordHasTheHandshake) {
  TlsPeer peer({});
  const auto record = idle_keepalive_over_tls(peer, scaled(200ms));
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.responses[0].status, 200u);
  EXPECT_TRUE(record.responses[0].complete);
  ASSERT_TRUE(record.tls);
  ASSERT_TRUE(record.tls->handshake_done);
  EXPECT_GT(*record.tls->handshake_done, Duration::zero());
  EXPECT_EQ(record.tls->version, "TLSv1.3");
  EXPECT_EQ(record.tls->alpn, "http/1.1");
  EXPECT_GT(record.tls->handshake_sent, 0u);
  EXPECT_GT(record.tls->handshake_received, 0u);
  EXPECT_FALSE(record.tls->alert);
  EXPECT_EQ(record.bytes_received, kTlsPeerOk.size());  // the response alone: no session ticket
  EXPECT_EQ(record.ending, Ending::open);
  ASSERT_TRUE(peer.wait_for_ends(1, scaled(2s)));
  EXPECT_EQ(peer.connections().at(0).answered, 1u);
}

// A server that closes before it answers the ClientHello ends the connection as `close`, at
// its time; connect fails, so nothing else is sent.
TEST(Tls, ServerFinDuringTheHandshakeIsCloseAtItsTime) {
  TlsPeer peer({.handshake = false, .close_after = 150ms});
  const auto record = idle_keepalive_over_tls(peer, 2s);
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, peer_acted(peer, record)));  // 150 ms, or later
  ASSERT_TRUE(record.tls);
  EXPECT_FALSE(record.tls->handshake_done);
  EXPECT_GT(record.tls->handshake_sent, 0u);  // the ClientHello
  EXPECT_TRUE(record.sends.empty());
}

// A fatal alert in the handshake is the `alert` ending, with the alert's code.
TEST(Tls, FatalAlertIsTheAlertEndingWithItsCode) {
  TlsPeer peer({.alert = true});
  const auto record = idle_keepalive_over_tls(peer, 2s);
  EXPECT_EQ(record.ending, Ending::alert);
  ASSERT_TRUE(record.tls);
  EXPECT_EQ(record.tls->alert, kNoApplicationProtocol);
  EXPECT_FALSE(record.tls->handshake_done);
  EXPECT_EQ(ending_label(record), "alert");
}

// A handshake the server never answers ends at the connect timeout: `open`, saying so.
TEST(Tls, HandshakeTimeoutLeavesTheConnectionOpenWithTheReason) {
  TlsPeer peer({.handshake = false});
  const auto record = idle_keepalive_over_tls(peer, 2s, 150ms);
  EXPECT_EQ(record.ending, Ending::open);
  EXPECT_NE(record.error.find("TLS handshake"), std::string::npos) << record.error;
  EXPECT_TRUE(near(record.connect_took + record.ended_at, 150ms));
}

// silent over TLS sends nothing at all, not even a ClientHello.
TEST(Tls, SilentOverTlsSendsZeroBytes) {
  TlsPeer peer({.handshake = false});
  const auto record = drive(spawn_silent, SilentOptions{.fleet = {.target = peer.endpoint(),
                                                                  .count = 1,
                                                                  .patience = scaled(150ms),
                                                                  .tls = tls_client()}})
                          .at(0);
  EXPECT_EQ(record.ending, Ending::open);
  ASSERT_TRUE(record.tls);
  EXPECT_FALSE(record.tls->handshake_done);
  EXPECT_EQ(record.tls->handshake_sent, 0u);
  ASSERT_TRUE(peer.wait_for_ends(1, scaled(2s)));
  EXPECT_EQ(peer.connections().at(0).raw_bytes, 0u);
}

// A connection held after its response over TLS records the server's close at its time.
TEST(Tls, HeldConnectionOverTlsRecordsTheServersClose) {
  TlsPeer peer({.close_after = 250ms});
  const auto record = idle_keepalive_over_tls(peer, 2s);
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, peer_acted(peer, record)));  // 250 ms, or later
}

// A client that closes first over TLS sends close_notify before its FIN.
TEST(Tls, ClientCloseFirstSendsCloseNotify) {
  TlsPeer peer({});
  auto options = FinCloseOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                                 .close_after = 100ms};
  options.fleet.tls = tls_client();
  const auto record = drive(spawn_fin_close, options).at(0);
  EXPECT_EQ(record.ending, Ending::client_close);
  ASSERT_TRUE(peer.wait_for_ends(1, scaled(2s)));
  EXPECT_EQ(peer.connections().at(0).client_ending, "close_notify");
}

// The load generator over TLS gets every request answered at a small rate.
TEST(Tls, LoadOverTlsAnswersEveryRequest) {
  TlsPeer peer({});
  asio::io_context io(1);
  LoadResult result;
  spawn_load(io,
             {.server = peer.endpoint(),
              .rate = 100,
              .duration = 500ms,
              .connections = 4,
              .request_timeout = scaled(1s),
              .start = Clock::now() + scaled(50ms),
              .tls = tls_client()},
             result);
  io.run();
  EXPECT_EQ(result.requested, 50u);
  EXPECT_EQ(result.succeeded, 50u);
  EXPECT_TRUE(result.errors.empty());
}

// tls-late-head: the handshake only `delay` after connect, then half a head, then nothing:
// the peer sees the handshake and the half head, the record when the handshake completed.
TEST(TlsLateHead, BeginsItsHandshakeLateThenSendsHalfAHead) {
  TlsPeer peer(
      {.close_after = std::chrono::duration_cast<std::chrono::milliseconds>(scaled(600ms))});
  TlsStallOptions options{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s},
                          .delay = scaled(300ms)};
  options.fleet.tls = tls_client();
  const auto record = drive(spawn_tls_late_head, options).at(0);
  ASSERT_TRUE(record.tls);
  ASSERT_TRUE(record.tls->handshake_done);
  EXPECT_GE(*record.tls->handshake_done, scaled(300ms));
  ASSERT_EQ(record.sends.size(), 1u);
  EXPECT_EQ(record.requests, 0u);
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, scaled(600ms)));
  const auto seen = peer.connections().at(0);
  EXPECT_TRUE(seen.handshake_done);
  EXPECT_TRUE(seen.received.starts_with("GET /health HTTP/1.1\r\n"));
  EXPECT_EQ(seen.received.find("\r\n\r\n"), std::string::npos);  // never the whole head
}

TEST(TlsLateHead, RefusesToRunWithoutTls) {
  TlsPeer peer({});
  asio::io_context io;
  std::vector<ConnectionRecord> records;
  EXPECT_THROW(spawn_tls_late_head(io, {.fleet = {.target = peer.endpoint()}}, records),
               std::invalid_argument);
}

}  // namespace
}  // namespace loiter::clients
