// This process's share of every fleet, when a scenario's connections are split over several
// client processes (more than one process's RLIMIT_NOFILE holds): connection i of a fleet
// belongs to process i % parts. The fleet's timeline and each connection's source address
// stay what they are in one process (both come from the connection's index); a process
// spawns only its own connections, and leaves the others' records untouched.
// A value each fleet is given (FleetSpec::share); one process owning everything by default.
#pragma once

#include <cstddef>

namespace loiter::clients {

struct FleetShare {
  std::size_t part = 0;   // this process: 0 … parts-1
  std::size_t parts = 1;  // client processes in all

  bool owns(std::size_t index) const { return index % parts == part; }
  // How many of a fleet of `count` connections are this process's.
  std::size_t of(std::size_t count) const;
};

// Throws std::invalid_argument unless part < parts.
void require_valid(FleetShare share);

}  // namespace loiter::clients
