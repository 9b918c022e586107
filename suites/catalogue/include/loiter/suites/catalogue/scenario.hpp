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

#include "loiter/clients/load/churn.hpp"
#include "loiter/clients/load/load_result.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/timing.hpp"
#include "loiter/suites/judge/observation.hpp"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace loiter::suites {

// What a scenario's clients are driven against (drive_context.hpp: the side that drives
// connections, with Asio; this header stays plain data).
struct DriveContext;

struct ScenarioParameters {
  std::size_t count = 0;  // connections of the scenario's kind; 0: the scenario's default
  // Regular traffic of load scenarios; 0: the scenario's default.
  double load_rate = 0;              // requests per second
  Duration load_duration{};          // how long the schedule runs
  std::size_t load_connections = 0;  // the generator's keep-alive pool
  // The soak's connection churn; nullopt: the scenario's default (none for idle-under-load).
  std::optional<clients::Churn> churn;
  // Where the server's run directory ({dir}: rendered files, stdout, stderr) is kept; empty:
  // a temporary one, removed after the scenario.
  std::filesystem::path server_dir;
  // At most this many connections in one client process; beyond, a scenario without regular
  // traffic is split over client processes. 0: what RLIMIT_NOFILE holds (tests set fewer).
  std::size_t connections_per_process = 0;
};

// What a scenario's drive produces: one fleet of records per client kind it spawns (most
// spawn one), and the regular traffic's result, if it runs any. A deque, so a fleet's
// records stay where they are while the next fleet is added.
struct DriveOutput {
  std::deque<std::vector<clients::ConnectionRecord>> fleets;
  std::optional<clients::LoadResult> load;
  // The thread that drove the fleets (and loiter's process) over the drive, in this process.
  std::optional<clients::ClientCost> fleet_cost;

  // A new fleet's output vector, to hand to one spawn_<kind>().
  std::vector<clients::ConnectionRecord>& fleet() { return fleets.emplace_back(); }
};

// Connections one client process holds within a 20,000-descriptor RLIMIT_NOFILE, and the
// most a scenario split over client processes is asked for.
inline constexpr std::size_t kOneProcessCount = 19'000;
inline constexpr std::size_t kSplitCount = 100'000;

struct Scenario {
  std::string_view id;
  // ctest label: header, body, keepalive, abort, not-cut, send, load, capacity, tls, h2
  std::string_view family;
  std::string_view must;  // what the server must do, one sentence

  // The reason to skip, or nullopt when the target declares what the scenario needs.
  std::function<std::optional<std::string>(const fixtures::Target&)> unmet_need;
  std::function<Expectations(const fixtures::Target&, const Timing&, const ScenarioParameters&)>
      expect;
  // Spawns the scenario's clients on `io`; their records land in `out` once `io` has run.
  std::function<void(boost::asio::io_context& io, const DriveContext& context, DriveOutput& out)>
      drive;
  std::size_t default_count = 100;  // connections, as in the seed
  // The most connections the command line accepts: one client process's worth, unless the
  // scenario is meant to be split over client processes (no regular traffic beside it).
  std::size_t most_count = kOneProcessCount;
  ScenarioParameters load_defaults{};  // load scenarios: rate, duration, pool
  // On the user's first Ctrl-C its clients stop taking new work (DriveContext::stop_early)
  // and finish what they began, and the run is judged on what ran (the soak: an overnight
  // run stopped after hours still says what it found); otherwise the clients stop at once
  // and nothing is judged.
  bool winds_down = false;
};

// Every scenario, in catalogue order.
const std::vector<Scenario>& catalogue();
// The scenario ids, in catalogue order.
std::vector<std::string> catalogue_ids();
// nullptr if no scenario has this id.
const Scenario* find_scenario(std::string_view id);
// Why `count` connections are too many for the scenario (beyond its most_count), or nullopt.
std::optional<std::string> count_problem(const Scenario& scenario, std::size_t count);

// The soak's default churn (loiter check --scenario soak): 5 % of requests on fresh
// connections the client closes, 2 % with "Connection: close", 0.5 % reset mid-response,
// every kept-alive connection replaced after 1,000 requests.
inline const clients::Churn kSoakChurn{
    .fresh = 0.05, .server_close = 0.02, .abort = 0.005, .replace_every = 1000, .abort_path = {}};

// One line of the catalogue's data file (suites/catalogue/catalogue.txt, embedded), which
// CMake reads too (cmake/LoiterCatalogue.cmake): what each scenario is and whether it runs
// by default. The test Catalogue.DataFileMatchesTheCatalogue holds it to catalogue().
// What a scenario speaks (the data file's third column, by its word): "http1" (over TLS
// too), "tls" (over TLS only), "h2", "h3", or "any" (HTTP/1.1 or HTTP/2, as the target
// speaks).
enum class ScenarioProtocol { http1, tls, h2, h3, any, every };
std::string_view to_string(ScenarioProtocol protocol);
// The protocol a data-file word names; nullopt for another word.
std::optional<ScenarioProtocol> scenario_protocol_of(std::string_view word);

struct CatalogueEntry {
  std::string_view id;
  std::string_view family;
  ScenarioProtocol protocol = ScenarioProtocol::http1;
  bool by_default = true;  // false: "on-request", only run when named
};

// The data file's entries, in its order. Throws std::logic_error naming a malformed line.
const std::vector<CatalogueEntry>& catalogue_entries();
// True when the data file has the scenario in the default run (false when it lacks it).
bool runs_by_default(std::string_view id);

// Why `target` does not speak the protocol of scenario `id` (its data file's column: http1
// needs a target without [h2], tls one with [tls] and without [h2], h2 one with [h2], any
// none), or
// nullopt when it does (or the id is unknown). The scenario's unmet_need says it too,
// among its other needs.
std::optional<std::string> protocol_unmet(std::string_view id, const fixtures::Target& target);

// The scenarios a command line asked for: the scenarios of `families` in catalogue order
// (those of the default run, or all of a family none of which is: `--family flood` runs the
// floods, `--family load` not the soak), then `ids` in their order; with neither, the
// default run (runs_by_default), less the load family with `without_load`. Throws
// std::invalid_argument for an unknown id or family, and when one cannot take `count`
// connections (0: each its own default).
std::vector<const Scenario*> choose_scenarios(const std::vector<std::string>& ids,
                                              std::size_t count, bool without_load = false,
                                              const std::vector<std::string>& families = {});

// Why the HTTP/3 floods a command line asked for cannot run on `target`, in the words of a
// target file's mistake (its source and key named), or nullopt. An h3 flood asked for by id,
// or by `--family flood`, on an [h3] target that declares no [h3.flood] names "h3.flood"; one
// asked for by id whose kind the declared [h3.flood] kinds leave out names "h3.flood.kinds"
// (by family, such a kind is skipped with the reason, as the h2 floods' are). A flood the
// target's protocol does not speak (an h3 flood on an HTTP/1.1 or [h2] target, an h2 flood
// anywhere) is skipped with the reason, as any scenario of another protocol is.
std::optional<std::string> asked_flood_problem(const std::vector<std::string>& ids,
                                               const std::vector<std::string>& families,
                                               const fixtures::Target& target);

}  // namespace loiter::suites
