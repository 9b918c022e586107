// Connection churn in the open-loop generator: fresh connections the client closes, requests
// with "Connection: close" the server closes, requests the client resets once answered,
// kept-alive connections replaced after N requests; each counted, every owed request
// answered, and the edge windows kept apart.
#include <gtest/gtest.h>

#include <map>

#include "drive.hpp"
#include "load_checks.hpp"
#include "load_peer.hpp"
#include "loiter/clients/load/load.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using testing::kLoadLead;
using testing::LoadPeer;
using testing::run_until_stopped;
using testing::scaled;

LoadOptions churn_options(const LoadPeer& peer, Churn churn) {
  return {.server = peer.endpoint(),
          .rate = 2000,
          .duration = 2s,
          .connections = 8,
          .request_timeout = scaled(1s),
          .start = Clock::now() + kLoadLead,
          .churn = std::move(churn)};
}

std::map<RequestKind, std::uint64_t> chosen_kinds(const Churn& churn, std::uint64_t requests) {
  std::map<RequestKind, std::uint64_t> kinds;
  for (std::uint64_t i = 0; i < requests; ++i) ++kinds[request_kind(churn, i)];
  return kinds;
}

// 2,000/s for 2 s with every kind of churn: each count is its share of the 4,000 requests
// (within 3 %), every owed request is answered 2xx, each slot's kept-alive connection is
// replaced every 50 of its requests, and the connections opened are the churn's sum.
TEST(LoadChurn, CountsEachKindAtItsShareAndAnswersEveryOwedRequest) {
  LoadPeer peer({});
  const Churn churn{.fresh = 0.1, .server_close = 0.1, .abort = 0.05, .replace_every = 50};
  const auto r = run_until_stopped(churn_options(peer, churn));
  auto kinds = chosen_kinds(churn, r.requested);
  ASSERT_EQ(r.requested, 4000u);
  EXPECT_EQ(r.dispatched, r.requested);
  EXPECT_TRUE(r.errors.empty()) << r.errors.begin()->first;
  EXPECT_TRUE(r.non_2xx.empty());
  EXPECT_EQ(r.owed(), r.dispatched - r.aborted);
  EXPECT_EQ(r.succeeded, r.owed());
  EXPECT_EQ(r.fresh_closed, kinds[RequestKind::fresh]);
  EXPECT_EQ(r.server_closed, kinds[RequestKind::server_close]);
  EXPECT_EQ(r.close_kept, 0u);
  EXPECT_EQ(r.aborted, kinds[RequestKind::abort]);
  EXPECT_NEAR(static_cast<double>(r.fresh_closed), 400.0, 12.0);
  EXPECT_NEAR(static_cast<double>(r.server_closed), 400.0, 12.0);
  EXPECT_NEAR(static_cast<double>(r.aborted), 200.0, 6.0);
  // Each slot's pooled requests in runs of 50: one replacement short per slot at most.
  const auto pooled = kinds[RequestKind::pooled];
  EXPECT_LE(r.replaced, pooled / 50);
  EXPECT_GE(r.replaced, pooled / 50 - 8);
  const auto churned = r.fresh_closed + r.server_closed + r.aborted;
  // Every slot opens its kept-alive connection once, and once after each replacement that
  // another pooled request follows.
  EXPECT_LE(r.connections_opened, 8 + r.replaced + churned);
  EXPECT_GE(r.connections_opened, r.replaced + churned);
  EXPECT_EQ(peer.accepted(), r.connections_opened);
  EXPECT_EQ(peer.requests(), r.dispatched);
  // The server saw a reset for each abort and a FIN for each fresh or replaced connection
  // (and for each kept-alive one closed at the end).
  EXPECT_TRUE(peer.wait_for_client_ends(churned - r.server_closed + r.replaced, scaled(1s)));
  EXPECT_EQ(peer.client_resets(), r.aborted);
  EXPECT_GE(peer.client_closes(), r.fresh_closed + r.replaced);
  EXPECT_LE(peer.client_closes(), r.fresh_closed + r.replaced + 8);
}

// Aborted requests asking for a large answer are reset mid-response: counted aborted, owed
// nothing, and the server sees a reset on each. Counted over what was dispatched: a request
// not sent within the send grace stays requested, not dispatched (LoadOptions::send_grace),
// and beside a busy loop per core the peer's 4 MB answers kept one of the 50 from going
// in time (49 dispatched, once).
TEST(LoadChurn, ResetsALargeAnswerMidResponse) {
  LoadPeer peer({.response = [](std::uint64_t) {
    return "HTTP/1.1 200 OK\r\nContent-Length: 4000000\r\n\r\n" + std::string(4'000'000, 'x');
  }});
  auto options = churn_options(peer, {.abort = 1.0, .abort_path = "/large"});
  options.rate = 100;
  options.duration = 500ms;
  const auto r = run_until_stopped(options);
  const auto sent = r.dispatched;
  EXPECT_EQ(r.requested, 50u);
  EXPECT_GT(sent, 0u);
  EXPECT_EQ(r.aborted, sent);
  EXPECT_EQ(r.owed(), 0u);
  EXPECT_EQ(r.succeeded, 0u);
  EXPECT_TRUE(r.errors.empty()) << r.errors.begin()->first;
  EXPECT_EQ(r.connections_opened, 8u + sent);  // the pool, opened ahead, and one per abort
  EXPECT_TRUE(peer.wait_for_client_ends(8 + sent, scaled(1s)));
  EXPECT_EQ(peer.client_resets(), sent);
  EXPECT_EQ(peer.client_closes(), 8u);  // the pool, unused, closed at the end
}

// A server that answers "Connection: close" but keeps the connection open: no error, no
// server_closed; each such request is counted as kept, and the client closes the connection
// itself.
TEST(LoadChurn, AServerThatKeepsAClosedConnectionOpenIsNoError) {
  LoadPeer peer({.honour_close = false});
  const Churn churn{.server_close = 0.2};
  auto options = churn_options(peer, churn);
  options.duration = 500ms;
  options.request_timeout = scaled(200ms);
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.dispatched, 1000u);
  EXPECT_EQ(r.succeeded, 1000u);
  EXPECT_EQ(r.server_closed, 0u);
  EXPECT_EQ(r.close_kept, chosen_kinds(churn, r.requested)[RequestKind::server_close]);
  EXPECT_GT(r.close_kept, 0u);
  EXPECT_TRUE(r.errors.empty()) << r.errors.begin()->first;
}

// The latency of the requests due in the first and the last 300 ms is kept apart: 600 of
// them in each at 2,000/s, none with churn or without edge_window.
TEST(LoadChurn, KeepsTheEdgeWindowsApart) {
  LoadPeer peer({});
  auto options = churn_options(peer, {});
  options.duration = 1s;
  options.edge_window = 300ms;
  const auto r = run_until_stopped(options);
  EXPECT_EQ(r.succeeded, 2000u);
  EXPECT_EQ(r.first_window.count(), 600u);
  EXPECT_EQ(r.last_window.count(), 600u);
  EXPECT_LE(r.first_window.percentile(99), r.from_intended.max());
  options.edge_window = {};
  options.start = Clock::now() + kLoadLead;
  const auto plain = run_until_stopped(options);
  EXPECT_EQ(plain.first_window.count(), 0u);
  EXPECT_EQ(plain.last_window.count(), 0u);
  EXPECT_EQ(plain.aborted + plain.fresh_closed + plain.server_closed + plain.replaced, 0u);
}

// Shares that are not fractions of the requests are refused.
TEST(LoadChurn, RefusesSharesBeyondOne) {
  asio::io_context io;
  LoadResult result;
  LoadOptions options{.server = tcp::endpoint(asio::ip::address_v4::loopback(), 1)};
  options.churn = {.fresh = 0.7, .server_close = 0.5};
  EXPECT_THROW(spawn_load(io, options, result), std::invalid_argument);
  options.churn = {.abort = -0.1};
  EXPECT_THROW(spawn_load(io, options, result), std::invalid_argument);
}

}  // namespace
}  // namespace loiter::clients
