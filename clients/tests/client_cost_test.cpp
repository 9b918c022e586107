// The client's own cost: a thread's want of a CPU tells one that spins from one that sleeps,
// and the load engine puts loiter's CPU into the seconds of its schedule, all of it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <thread>

#include "drive.hpp"
#include "loiter/clients/cost_span.hpp"
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

ClientCost metered(const std::function<void()>& work) {
  const CostSpan span;
  work();
  return span.until_now();
}

// Busy is the thread's time on a CPU or waiting for one: a thread that spins wants its CPU
// all along (beside a busy loop too: waiting for it counts), one that sleeps hardly at all.
TEST(ClientCost, AThreadThatSpinsIsBusyAndOneThatSleepsIsNot) {
  const auto spinning = metered([] {
    const auto until = Clock::now() + 300ms;
    while (Clock::now() < until) {
    }
  });
  EXPECT_GE(spinning.busy, 0.9);
  EXPECT_LE(spinning.busy, 1.05);
  EXPECT_GE(spinning.wall_s, 0.3);
  EXPECT_GT(spinning.cpu_s, 0.0);

  const auto sleeping = metered([] { std::this_thread::sleep_for(300ms); });
  EXPECT_LT(sleeping.busy, 0.5);
  EXPECT_GE(sleeping.wall_s, 0.3);
}

// The engine measures the load it ran: its wall time covers the schedule, and the CPU of
// each second of the schedule adds up to the whole (the pool's opening in the first, the
// drain in the last).
TEST(ClientCost, TheLoadsCpuGoesIntoTheSecondsOfItsSchedule) {
  LoadPeer peer({});
  const auto r = run_until_stopped({.server = peer.endpoint(),
                                    .rate = 2000,
                                    .duration = 2s,
                                    .request_timeout = scaled(1s),
                                    .start = Clock::now() + kLoadLead});
  ASSERT_EQ(r.seconds.size(), 2u);
  EXPECT_GE(r.client.wall_s, 2.0);
  EXPECT_GT(r.client.cpu_s, 0.0);
  EXPECT_GT(r.client.busy, 0.0);
  EXPECT_LE(r.client.busy, 1.05);
  const double per_second = std::accumulate(r.seconds.begin(), r.seconds.end(), 0.0,
                                            [](double sum, const LoadSecond& s) {
                                              return sum + s.client_cpu_s;
                                            });
  EXPECT_NEAR(per_second, r.client.cpu_s, 1e-9);  // one reading ends both
  for (const auto& second : r.seconds) EXPECT_GT(second.client_cpu_s, 0.0);
}

}  // namespace
}  // namespace loiter::clients
