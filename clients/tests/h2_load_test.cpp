// The open-loop generator over HTTP/2 (LoadProtocol::h2): the same schedule as HTTP/1.1 with
// each request a stream, within the server's MAX_CONCURRENT_STREAMS; resets counted as
// errors; a GOAWAY counted, the streams above its last_stream_id sent again elsewhere; the
// abort churn's RST_STREAM; and a TLS server that does not choose "h2".
#include <gtest/gtest.h>

#include <numeric>
#include <thread>

#include "drive.hpp"
#include "h2_load_peer.hpp"
#include "load_checks.hpp"
#include "loiter/clients/load/load.hpp"
#include "tls_peer.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using testing::H2LoadPeer;
using testing::kLoadLead;
using testing::latency_adds_up;
using testing::run_until_stopped;
using testing::scaled;
using testing::stopped_early_where_seen;

LoadOptions h2_options(tcp::endpoint server, double rate, Duration duration) {
  return {.server = server,
          .rate = rate,
          .duration = duration,
          .connections = 4,
          .request_timeout = scaled(1s),
          .start = Clock::now() + kLoadLead,
          .protocol = LoadProtocol::h2};
}

std::uint64_t h2_total_errors(const LoadResult& r) {
  return std::accumulate(r.errors.begin(), r.errors.end(), std::uint64_t{0},
                         [](auto sum, const auto& e) { return sum + e.second; });
}

// The errors by kind, for a failure's message.
std::string h2_errors_text(const LoadResult& r) {
  std::string text;
  for (const auto& [kind, n] : r.errors) text += kind + "=" + std::to_string(n) + " ";
  return text;
}

TEST(H2Load, KeepsTheScheduleAndEveryStreamSucceeds) {
  H2LoadPeer peer({});
  const auto r = run_until_stopped(h2_options(peer.endpoint(), 1000, 500ms));
  EXPECT_EQ(r.requested, 500u);
  EXPECT_EQ(r.dispatched, 500u);
  EXPECT_EQ(r.succeeded, 500u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  EXPECT_TRUE(r.non_2xx.empty());
  EXPECT_TRUE(r.goaways.empty());
  EXPECT_EQ(peer.requests(), 500u);
  EXPECT_EQ(peer.accepted(), 4u);  // streams multiplexed: no connection per request
  EXPECT_EQ(r.connections_opened, 4u);
  EXPECT_EQ(r.from_intended.count(), 500u);
  EXPECT_TRUE(latency_adds_up(r));  // not a p50 bound: that is the machine's
  ASSERT_EQ(r.seconds.size(), 1u);
  EXPECT_EQ(r.seconds[0].requested, 500u);
  EXPECT_LE(r.max_sends_in_one_ms, 2u);  // twice the mean of 1 a ms
}

// A server allowing 2 streams at once, each answer held 10 ms: one connection carries at
// most 200 answers/s, the schedule asks 300/s. Requests wait for a slot (late from intended),
// never a third stream; and a request is sent only once it has a slot (nghttp2 would hold a
// stream past the limit back itself, and its latency from "sent" would grow with the queue).
TEST(H2Load, NeverOpensMoreStreamsThanTheServerAllows) {
  H2LoadPeer peer({.max_concurrent_streams = 2, .hold = 10ms});
  auto options = h2_options(peer.endpoint(), 300, 400ms);
  options.connections = 1;
  const auto r = run_until_stopped(options);
  EXPECT_EQ(peer.most_open(), 2u);
  EXPECT_EQ(r.dispatched, 120u);
  EXPECT_EQ(r.succeeded, 120u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  EXPECT_GT(r.from_intended.max(), 50ms);  // the wait for a slot shows
  // Not in the wait for a slot: the queue reaches ~40 requests, 200 ms at 200 answers/s (more
  // on a busy machine, which answers slower), and a request handed to nghttp2 before it had a
  // slot would count that wait from "sent" as well, its p99 as large as from "intended". Sent
  // with a slot, it counts the 10 ms hold and the machine's delays, which may be anything (a
  // bound of 80 ms failed once beside a busy loop and six other tests): what holds at any
  // speed is the queue's wait between the two, at least half of its 200 ms.
  const auto p99_intended = r.from_intended.percentile(99);
  const auto p99_sent = r.from_sent.percentile(99);
  RecordProperty("p99_from_intended_ms", std::to_string(ms(p99_intended)));
  RecordProperty("p99_from_sent_ms", std::to_string(ms(p99_sent)));
  EXPECT_GE(p99_intended - p99_sent, 100ms)
      << "p99 from intended " << ms(p99_intended) << " ms, from sent " << ms(p99_sent)
      << " ms: the wait for a slot counted from \"sent\"";
}

TEST(H2Load, ServerResetsAreErrorsNotSuccesses) {
  H2LoadPeer peer({.reset = [](std::uint64_t n) -> std::uint32_t {
    return n % 4 == 1 ? 7u : n % 4 == 2 ? 2u : 0u;  // REFUSED_STREAM, INTERNAL_ERROR
  }});
  const auto r = run_until_stopped(h2_options(peer.endpoint(), 400, 500ms));
  EXPECT_EQ(r.dispatched, 200u);
  EXPECT_EQ(r.succeeded, 100u);
  EXPECT_EQ(r.errors.at("refused"), 50u);
  EXPECT_EQ(r.errors.at("rst:INTERNAL_ERROR"), 50u);
  EXPECT_EQ(h2_total_errors(r), 100u);
  std::uint64_t failed = 0;
  for (const auto& s : r.seconds) failed += s.failed;
  EXPECT_EQ(failed, 100u);
}

// Each connection gets a GOAWAY (NO_ERROR) naming its 3rd stream as the last; the client
// sends 4 streams a millisecond (the burst cap at 2,000/s), so the 4th went past it: it is
// sent again on a new connection, dispatched once, and answered.
TEST(H2Load, GoawayIsCountedAndLaterStreamsGoAgainOnANewConnection) {
  H2LoadPeer peer({.goaway_after = 3});
  auto options = h2_options(peer.endpoint(), 2000, 300ms);
  options.connections = 1;
  options.tick = 5ms;
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.requested, 600u);
  EXPECT_EQ(r.dispatched, 600u);
  EXPECT_EQ(r.succeeded, 600u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  EXPECT_EQ(peer.answered(), 600u);
  EXPECT_GT(peer.past_goaway(), 0u);  // some streams did go past a GOAWAY
  ASSERT_EQ(r.goaways.count("NO_ERROR"), 1u);
  EXPECT_GE(r.goaways.at("NO_ERROR"), 200u);
  EXPECT_EQ(r.server_closed, r.goaways.at("NO_ERROR"));
  EXPECT_GE(r.connections_opened, 200u);
}

TEST(H2Load, AbortChurnResetsTheStreamOnceItsAnswerBegan) {
  H2LoadPeer peer({});
  auto options = h2_options(peer.endpoint(), 400, 500ms);
  options.churn.abort = 0.5;
  std::uint64_t aborts = 0;
  for (std::uint64_t i = 0; i < 200; ++i) {
    aborts += request_kind(options.churn, i) == RequestKind::abort ? 1 : 0;
  }
  ASSERT_GT(aborts, 50u);
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 200u);
  EXPECT_EQ(r.aborted, aborts);
  EXPECT_EQ(r.succeeded, 200u - aborts);
  EXPECT_EQ(r.owed(), r.succeeded);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  // CANCEL (8), every one: the peer reads the last ones just after the generator ends.
  EXPECT_EQ(peer.wait_client_resets(8, aborts, std::chrono::steady_clock::now() + 1s), aborts);
  EXPECT_EQ(peer.accepted(), 4u);  // an abort resets a stream, not its connection
}

TEST(H2Load, ReplaceEveryClosesAConnectionAfterItsStreams) {
  H2LoadPeer peer({});
  auto options = h2_options(peer.endpoint(), 400, 500ms);
  options.churn.replace_every = 10;
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 200u);
  EXPECT_EQ(r.succeeded, 200u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  // Each connection that took its 10 is replaced; at the end up to 4 hold fewer.
  EXPECT_GE(r.replaced, 16u);
  EXPECT_LE(r.replaced, 20u);
  EXPECT_EQ(peer.most_requests(), 10u);
  // 200 streams, at most 10 a connection: 20 connections carried them at least. A replacement
  // opened as the schedule ends has nothing to carry and may be given up mid-connect, so the
  // connections are at most the pool's 4 and one a replaced one. Every connection the client
  // made is one the peer accepted (the last may still wait in its backlog: 2 s at most).
  EXPECT_GE(r.connections_opened, 20u);
  EXPECT_LE(r.connections_opened, 4u + r.replaced);
  EXPECT_EQ(peer.wait_accepted(r.connections_opened, std::chrono::steady_clock::now() + 2s),
            r.connections_opened);
}

TEST(H2Load, FreshChurnSendsAStreamOnAConnectionOfItsOwn) {
  H2LoadPeer peer({});
  auto options = h2_options(peer.endpoint(), 200, 500ms);
  options.churn.fresh = 1.0;
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 100u);
  EXPECT_EQ(r.succeeded, 100u);
  EXPECT_EQ(r.fresh_closed, 100u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  EXPECT_EQ(peer.accepted(), 104u);  // the pool's 4 and one a request
}

// A TLS server that does not choose "h2" (this one offers no ALPN at all): every connect
// fails as "alpn", nothing is dispatched.
TEST(H2Load, TlsWithoutH2AlpnFailsEachConnect) {
  testing::TlsPeer peer({});
  auto options = h2_options(peer.endpoint(), 100, 200ms);
  options.connections = 1;
  options.tls = make_tls_client({.alpn = {"http/1.1"}});  // replaced by "h2" alone
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 0u);
  EXPECT_EQ(r.succeeded, 0u);
  EXPECT_GE(r.errors.at("alpn"), 1u);
}

// 100,000-byte POST bodies: past the 65,535 bytes a stream may send before the server's first
// WINDOW_UPDATE, so each goes on as the server opens its windows.
TEST(H2Load, PostBodiesLargerThanTheWindowGoAsTheServerOpensIt) {
  H2LoadPeer peer({});
  auto options = h2_options(peer.endpoint(), 50, 400ms);
  options.method = "POST";
  options.body = std::string(100000, 'b');
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 20u);
  EXPECT_EQ(r.succeeded, 20u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  EXPECT_EQ(peer.body_bytes(), 20u * 100000u);
}

// Over TLS with ALPN "h2": the same schedule, every stream answered.
TEST(H2Load, OverTlsWithH2AlpnEveryStreamSucceeds) {
  H2LoadPeer peer({.tls = true});
  auto options = h2_options(peer.endpoint(), 500, 400ms);
  options.tls = make_tls_client({.alpn = {"http/1.1"}});  // replaced by "h2" alone
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 200u);
  EXPECT_EQ(r.succeeded, 200u);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
  EXPECT_EQ(peer.accepted(), 4u);
}

// Two shards of one schedule (share 0/2 and 1/2) on one context send the whole of it once.
TEST(H2Load, SharesOfTheScheduleSendTheWholeOfItOnce) {
  H2LoadPeer peer({});
  auto first = h2_options(peer.endpoint(), 1000, 400ms);
  auto second = first;
  first.share = {.part = 0, .parts = 2};
  second.share = {.part = 1, .parts = 2};
  asio::io_context io(1);
  LoadResult a, b;
  spawn_load(io, first, a);
  spawn_load(io, second, b);
  io.run();
  EXPECT_EQ(a.requested, 200u);
  EXPECT_EQ(b.requested, 200u);
  EXPECT_EQ(a.succeeded + b.succeeded, 400u);
  EXPECT_EQ(peer.requests(), 400u);
}

// A closed loop keeps every connection full to the server's limit, never past it.
TEST(H2Load, ClosedLoopKeepsEachConnectionFullToTheServersLimit) {
  H2LoadPeer peer({.max_concurrent_streams = 8, .hold = 2ms});
  auto options = h2_options(peer.endpoint(), 0, 300ms);
  options.connections = 2;
  const auto r = run_until_stopped(options);
  EXPECT_EQ(peer.most_open(), 8u);
  EXPECT_GT(r.dispatched, 200u);
  EXPECT_EQ(r.requested, r.dispatched);
  EXPECT_EQ(r.succeeded, r.dispatched);
  EXPECT_TRUE(r.errors.empty()) << h2_errors_text(r);
}

// Held to when the generator saw the stop, as Load.StopsEarlyWhereAskedAndSaysSo: on a busy
// machine its wake comes late and the schedule ends where it saw the stop (a bound of
// "250 to 400 of the 300 due by the stop" failed beside a busy loop).
TEST(H2Load, StopEarlyEndsTheScheduleThere) {
  H2LoadPeer peer({});
  stopped_early_where_seen(h2_options(peer.endpoint(), 1000, 2s), 300ms, 2000u);
}

}  // namespace
}  // namespace loiter::clients
