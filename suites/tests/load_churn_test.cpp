// Connection churn against the reference server, cleartext (2,000 req/s) and over TLS
// (500 req/s), for 2 s each, with fresh connections (10 %), "Connection: close" (10 %), aborts
// mid-answer (5 %, of /large) and the kept-alive connections replaced every 50 requests. Each kind
// is counted as often as request_kind() chose it, every owed request is answered 2xx, the server
// accepted exactly the connections the generator opened, and its FDs come back.
#include <gtest/gtest.h>

#include <map>

#include "loiter/clients/load/load.hpp"
#include "loiter/clients/transport/tls.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using clients::Clock;
using clients::RequestKind;

struct ChurnRun {
  clients::LoadResult result;
  std::map<RequestKind, std::uint64_t> kinds;  // what request_kind() chose
};

ChurnRun run_churn(const fixtures::ServerUnderTest& sut, double rate, clients::TlsClient tls) {
  const clients::Churn churn{.fresh = 0.1,
                             .server_close = 0.1,
                             .abort = 0.05,
                             .replace_every = 50,
                             .abort_path = "/large"};
  clients::asio::io_context io(1);
  ChurnRun run;
  clients::spawn_load(io,
                      {.server = {clients::asio::ip::make_address(sut.host()), sut.port()},
                       .rate = rate,
                       .duration = 2s,
                       .connections = 8,
                       .start = Clock::now() + 50ms,
                       .tls = std::move(tls),
                       .churn = churn},
                      run.result);
  io.run();  // the generator stops by itself
  for (std::uint64_t i = 0; i < run.result.requested; ++i) ++run.kinds[request_kind(churn, i)];
  return run;
}

void expect_churn_counted(const ChurnRun& run) {
  const auto& r = run.result;
  EXPECT_EQ(r.dispatched, r.requested);
  EXPECT_TRUE(r.errors.empty()) << r.errors.begin()->first << " " << r.errors.begin()->second;
  EXPECT_TRUE(r.non_2xx.empty());
  EXPECT_EQ(r.succeeded, r.owed());
  EXPECT_EQ(r.fresh_closed, run.kinds.at(RequestKind::fresh));
  EXPECT_EQ(r.server_closed, run.kinds.at(RequestKind::server_close));
  EXPECT_EQ(r.aborted, run.kinds.at(RequestKind::abort));
  EXPECT_LE(r.replaced, run.kinds.at(RequestKind::pooled) / 50);
  EXPECT_GE(r.replaced + 8, run.kinds.at(RequestKind::pooled) / 50);
  const auto churned = r.fresh_closed + r.server_closed + r.aborted;
  EXPECT_LE(r.connections_opened, 8 + r.replaced + churned);
  EXPECT_GE(r.connections_opened, r.replaced + churned);
}

// Cleartext: every kind counted as chosen, every owed request answered, FDs back.
TEST(LoadChurnAgainstReference, CountsEveryKindAndTheServersFdsComeBack) {
  fixtures::ServerUnderTest sut(testing::self_test_reference());
  const auto baseline = sut.baseline();
  const auto run = run_churn(sut, 2000.0, nullptr);
  ASSERT_EQ(run.result.requested, 4000u);
  expect_churn_counted(run);
  const auto back = fixtures::wait_for_fds_at_most(sut.probe(), baseline.sample.fds, 200ms, 5s);
  EXPECT_TRUE(back.recovered) << back.last_fds << " FDs, baseline " << baseline.sample.fds;
}

// Over TLS, at 500 req/s (a quarter of the requests make a handshake each: 125/s, which a
// shared 2-core machine keeps up with): the same counts hold.
TEST(LoadChurnAgainstReference, CountsEveryKindOverTls) {
  const auto target = testing::self_test_reference({}, /*tls=*/true);
  fixtures::ServerUnderTest sut(target);
  const auto run = run_churn(
      sut, 500.0,
      clients::make_tls_client({.alpn = target.tls->alpn, .server_name = target.tls->server_name}));
  expect_churn_counted(run);
}

}  // namespace
}  // namespace loiter::suites
