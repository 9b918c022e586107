// A fleet split over client processes: each process spawns only its own connections
// (index % parts == part) on the unchanged timeline, and leaves the others' records alone.
#include "loiter/clients/transport/share.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loiter/clients/transport/fleet.hpp"

namespace loiter::clients {
namespace {

using ::testing::ElementsAre;

awaitable<void> note(Slot slot, std::vector<std::size_t>& spawned) {
  spawned.push_back(slot.index);
  slot.record.source = "spawned";
  co_return;
}

TEST(FleetShare, SpawnsOnlyItsOwnConnectionsOfAFleet) {
  asio::io_context io(1);
  std::vector<ConnectionRecord> out;
  std::vector<std::size_t> spawned;
  spawn_fleet(
      io, 8, {.start = Clock::now(), .per_second = 100'000.0}, {.part = 1, .parts = 3},
      [&spawned](Slot slot) { return note(slot, spawned); }, out);
  io.run_for(std::chrono::seconds(2));
  EXPECT_THAT(spawned, ElementsAre(1, 4, 7));
  ASSERT_EQ(out.size(), 8u);  // the fleet keeps its indexes; others' slots stay default
  EXPECT_EQ(out[0].source, "");
  EXPECT_EQ(out[4].source, "spawned");
}

TEST(FleetShare, CountsItsPartOfAFleet) {
  EXPECT_EQ((FleetShare{.part = 0, .parts = 3}.of(8)), 3u);
  EXPECT_EQ((FleetShare{.part = 2, .parts = 3}.of(8)), 2u);
  EXPECT_EQ(FleetShare{}.of(8), 8u);
  EXPECT_THROW(require_valid({.part = 3, .parts = 3}), std::invalid_argument);
}

// A fleet given a share that is no part of the whole spawns nothing and says why.
TEST(FleetShare, RefusesAPartOutsideTheWhole) {
  asio::io_context io(1);
  std::vector<ConnectionRecord> out;
  const auto body = [](Slot) -> awaitable<void> { co_return; };
  EXPECT_THROW(spawn_fleet(io, 8, {}, {.part = 3, .parts = 3}, body, out), std::invalid_argument);
  EXPECT_THROW(spawn_fleet(io, 8, {}, {.part = 0, .parts = 0}, body, out), std::invalid_argument);
}

}  // namespace
}  // namespace loiter::clients
