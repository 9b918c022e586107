// A scenario of the catalogue = what to drive + what to expect, with a stable id.
// Expectations derive from what the target declares; a scenario whose needs the target
// does not declare is skipped with the reason.
#pragma once

#include <deque>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/asio.hpp"
#include "loiter/clients/load.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/fixtures/target.hpp"
#include "loiter/suites/observation.hpp"
#include "loiter/suites/timing.hpp"

namespace loiter::suites {

struct ScenarioParameters {
  std::size_t count = 0;  // connections of the scenario's kind; 0: the scenario's default
  // Regular traffic of load scenarios; 0: the scenario's default.
  double load_rate = 0;            // requests per second
  Duration load_duration{};        // how long the schedule runs
  std::size_t load_connections = 0;  // the generator's keep-alive pool
  // Where the server's run directory ({dir}: rendered files, stdout, stderr) is kept; empty:
  // a temporary one, removed after the scenario.
  std::filesystem::path server_dir;
};

// What a scenario's drive produces: one fleet of records per client kind it spawns (most
// spawn one), and the regular traffic's result, if it runs any. A deque, so a fleet's
// records stay where they are while the next fleet is added.
struct DriveOutput {
  std::deque<std::vector<clients::ConnectionRecord>> fleets;
  std::optional<clients::LoadResult> load;

  // A new fleet's output vector, to hand to one spawn_<kind>().
  std::vector<clients::ConnectionRecord>& fleet() { return fleets.emplace_back(); }
};

// What a scenario's clients are driven against.
struct DriveContext {
  clients::tcp::endpoint server;
  const fixtures::Target& target;
  const Expectations& expected;
  const Timing& timing;
  const ScenarioParameters& parameters;  // resolved: defaults filled in
};

struct Scenario {
  std::string_view id;
  std::string_view family;  // ctest label: header, body, keepalive, abort, not-cut, load
  std::string_view must;    // what the server must do, one sentence

  // The reason to skip, or nullopt when the target declares what the scenario needs.
  std::function<std::optional<std::string>(const fixtures::Target&)> unmet_need;
  std::function<Expectations(const fixtures::Target&, const Timing&, const ScenarioParameters&)>
      expect;
  // Spawns the scenario's clients on `io`; their records land in `out` once `io` has run.
  std::function<void(clients::asio::io_context& io, const DriveContext& context,
                     DriveOutput& out)>
      drive;
  std::size_t default_count = 100;  // connections, as in the seed
  ScenarioParameters load_defaults{};  // load scenarios: rate, duration, pool
};

// Every scenario, in catalogue order.
const std::vector<Scenario>& catalogue();
// The scenario ids, in catalogue order.
std::vector<std::string> catalogue_ids();
// nullptr if no scenario has this id.
const Scenario* find_scenario(std::string_view id);

}  // namespace loiter::suites
