// One shard of a run split over machines (loiter check --shard k/K): share k of every fleet
// (connection i when i mod K = k) and of the regular traffic's schedule (request n when
// n mod K = k), driven against a server loiter did not start, on a timeline whose origin is
// the start every shard was given. What a shard brings back is plain data for the merge: its
// records with their fleet and index, and its load result.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "loiter/clients/load/load_result.hpp"
#include "loiter/clients/transport/share.hpp"
#include "loiter/fixtures/probe/endpoint.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/client_lines.hpp"

namespace loiter::suites {

struct ShardOutput {
  std::vector<FleetRecord> records;  // this shard's connections, by fleet and index
  std::vector<std::size_t> fleets;   // each fleet's whole size (every shard's connections)
  std::optional<clients::LoadResult> load;
  std::size_t client_processes = 1;  // the shard's share was split over this many processes
  bool interrupted = false;          // the user stopped it before its clients ended
  bool stopped_early = false;        // a scenario that winds down was stopped: ran in part
};

// Drives `share` of the scenario's clients against `server` from `start` (a steady-clock
// time every shard agrees on), to their end. `parameters` are resolved. Throws
// std::runtime_error (or fixtures::HarnessError) on a harness fault: a limit, a client
// process that failed.
ShardOutput drive_shard(const Scenario& scenario, const fixtures::Target& target,
                        const fixtures::TcpEndpoint& server, const Expectations& expected,
                        const Timing& timing, const ScenarioParameters& parameters,
                        clients::FleetShare share, clients::Clock::time_point start);

}  // namespace loiter::suites
