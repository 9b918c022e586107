// A scenario of the catalogue = what to drive + what to expect, with a stable id.
// Expectations derive from what the target declares; a scenario whose needs the target
// does not declare is skipped with the reason.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/asio.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/fixtures/target.hpp"
#include "loiter/suites/observation.hpp"
#include "loiter/suites/timing.hpp"

namespace loiter::suites {

struct ScenarioParameters {
  std::size_t count = 0;  // connections of the scenario's kind; 0: the scenario's default
  // Where the server's run directory ({dir}: rendered files, stdout, stderr) is kept; empty:
  // a temporary one, removed after the scenario.
  std::filesystem::path server_dir;
};

// What a scenario's clients are driven against.
struct DriveContext {
  clients::tcp::endpoint server;
  const fixtures::Target& target;
  const Expectations& expected;
  const Timing& timing;
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
                     std::vector<clients::ConnectionRecord>& out)>
      drive;
  std::size_t default_count = 100;  // connections, as in the seed
};

// Every scenario, in catalogue order.
const std::vector<Scenario>& catalogue();
// The scenario ids, in catalogue order.
std::vector<std::string> catalogue_ids();
// nullptr if no scenario has this id.
const Scenario* find_scenario(std::string_view id);

}  // namespace loiter::suites
