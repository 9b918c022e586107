// The seed's figures of a load scenario, derived from its plain observation (a pure
// function: the judge and the report both read them, neither measures).
#pragma once

#include <cstddef>
#include <optional>

#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites {

// Start / peak / end of one sampled quantity over the scenario's timeline.
struct Span {
  std::size_t start = 0, peak = 0, end = 0;
};

struct LoadFigures {
  // From the load's start to the last waiting connection's ending by the server; nullopt
  // while any waiting connection was never observed closed.
  std::optional<Duration> all_waiting_closed;
  // The server's FDs at the last sample taken while the load still ran (after reclaim).
  std::optional<std::size_t> fds_during;
  Span fds, rss_kib, threads;
  // From the load's start to its last outstanding request's end.
  Duration load_lasted{};
};

// nullopt when the observation has no load.
std::optional<LoadFigures> load_figures(const Observation& observation);

}  // namespace loiter::suites
