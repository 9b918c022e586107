// Many connections of one behaviour, opened at a steady rate on one io_context.
// Connection i starts at `start + i / per_second` on an absolute timeline, so opening is
// paced evenly, not fired in bursts; it is spawned just before its start, so connections
// not yet started cost nothing. Each connection writes its record into `out[i]` as it
// goes (so a caller may look at them while io runs); io_context::run() returns once every
// connection has ended (each is bounded by its own patience). `out` must not be resized
// while the fleet runs. When the fleet is split over client processes (`share`), only
// this process's connections are spawned; the others' entries stay default records.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/share.hpp"

namespace loiter::clients {

struct Pacing {
  Clock::time_point start = Clock::now();
  double per_second = 2000.0;
};

// Where and when one connection of a fleet starts, and where its record goes.
struct Slot {
  std::size_t index;         // 0 … count-1 within the fleet
  Clock::time_point start;   // its place on the fleet's timeline
  ConnectionRecord& record;  // its entry in the fleet's output
};

using ConnectionBody = std::function<awaitable<void>(Slot slot)>;

// Throws std::invalid_argument for an invalid share.
void spawn_fleet(asio::io_context& io, std::size_t count, Pacing pacing, FleetShare share,
                 const ConnectionBody& body, std::vector<ConnectionRecord>& out);

// Follow-up sends and reads on an absolute timeline from the connection's own connect:
// step k is due at connected + (k + phase) × interval. Connection i's phase is spread over
// (0, 1] by the golden ratio (connection 0: exactly one interval), so N connections never
// act on the same tick, however fast they were opened.
struct Schedule {
  Clock::time_point connected;
  Duration interval;
  double phase = 0.0;

  Clock::time_point at(std::size_t step) const;
};

double spread_phase(std::size_t index);

}  // namespace loiter::clients
