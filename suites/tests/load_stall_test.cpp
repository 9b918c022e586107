// Latency that does not lie: an open-loop generator keeps its schedule while the server is
// frozen, so every due request is still dispatched, and latency measured from each
// request's intended send time shows the freeze. A 1 s freeze (SIGSTOP) in the middle of a
// 10 s run at 5,000 req/s delays ~10 % of the requests by up to 1 s: p99 ≈ 0.9 s. Latency
// from the actual send hides it (only the 32 requests in flight at the freeze waited).
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <string>

#include "loiter/clients/load/load.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using clients::Clock;

// Freezes a process for a while on the io_context's clock; thaws it on destruction too, so
// a failing test never leaves the server stopped.
class Freeze {
 public:
  Freeze(clients::asio::io_context& io, pid_t pid, Clock::time_point from, Clock::time_point to)
      : pid_(pid), stop_(io.get_executor()), thaw_(io.get_executor()) {
    stop_.expires_at(from);
    stop_.async_wait([this](auto ec) {
      if (!ec) ::kill(pid_, SIGSTOP);
    });
    thaw_.expires_at(to);
    thaw_.async_wait([this](auto ec) {
      if (!ec) ::kill(pid_, SIGCONT);
    });
  }
  ~Freeze() { ::kill(pid_, SIGCONT); }
  Freeze(const Freeze&) = delete;
  Freeze& operator=(const Freeze&) = delete;

 private:
  pid_t pid_;
  clients::Timer stop_, thaw_;
};

// The generator dispatches every due request through a 1 s freeze of the server, and its
// p99 from intended send time is about 0.9 s while p99 from the actual send stays small. The
// run is 4 s, so the requests due in the frozen second are a quarter of all: p99 lies among
// them (about 0.96 s) however the rest is timed; the 32 requests in flight when the freeze
// starts are far fewer than 1 % of 20,000, so p99 from the actual send does not see it.
TEST(OpenLoopGenerator, AServerFrozenForOneSecondShowsInLatencyFromIntendedSendTime) {
  fixtures::ServerUnderTest sut(testing::self_test_reference());
  clients::asio::io_context io(1);
  clients::LoadResult result;
  const auto start = Clock::now() + 50ms;
  clients::spawn_load(io,
                      {.server = {clients::asio::ip::make_address(sut.host()), sut.port()},
                       .rate = 5000.0,
                       .duration = 4s,
                       .connections = 32,
                       .start = start},
                      result);
  {
    const Freeze freeze(io, sut.pid(), start + 1500ms, start + 2500ms);
    io.run();  // the generator stops by itself after its 4 s
  }
  const auto p99 = in_seconds(result.from_intended.percentile(99.0));
  const auto p99_sent = in_seconds(result.from_sent.percentile(99.0));
  RecordProperty("p99_from_intended_s", std::to_string(p99));
  RecordProperty("p99_from_sent_s", std::to_string(p99_sent));
  std::printf("dispatched %llu/%llu, p99 from intended %.3f s, from sent %.3f s, max %.3f s\n",
              static_cast<unsigned long long>(result.dispatched),
              static_cast<unsigned long long>(result.requested), p99, p99_sent,
              in_seconds(result.from_intended.max()));
  EXPECT_EQ(result.requested, 20'000u);
  EXPECT_EQ(result.dispatched, result.requested) << "the generator skipped due requests";
  EXPECT_EQ(result.succeeded, result.dispatched);
  EXPECT_GE(p99, 0.75) << "from intended send time the freeze must show";
  EXPECT_LE(p99, 1.05);
  EXPECT_GE(in_seconds(result.from_intended.max()), 0.9);
  EXPECT_LT(p99_sent, 0.1)
      << "from the actual send only the requests in flight at the freeze waited";
}

}  // namespace
}  // namespace loiter::suites
