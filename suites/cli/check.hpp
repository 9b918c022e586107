// `loiter check`: options and the run.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <vector>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::cli {

// The regular traffic's limits (check, k8s-job): requests per second of the whole run (all
// shards), and seconds (a week, as a soak).
inline constexpr double kMostLoadRate = 10'000'000;
inline constexpr double kMostLoadDuration = 7 * 24 * 3600.0;

struct CheckOptions {
  std::string target = "reference";
  std::vector<std::string> scenarios;    // empty: the whole catalogue
  // Families whose scenarios run (before `scenarios`); with neither, the whole catalogue but
  // the flood family.
  std::vector<std::string> families;
  std::vector<std::string> faults;       // reference server fault switches
  std::vector<std::string> settings;     // --set table.key=value, the target file's keys
  // Sugar for --set deadlines.header=S (body, idle; send: promises.send_timeout).
  std::optional<double> header_timeout;
  std::optional<double> body_timeout;
  std::optional<double> idle_timeout;
  std::optional<double> send_timeout;
  std::size_t count = 0;  // 0: each scenario's own default
  // Regular traffic of load scenarios (idle-under-load); 0: the scenario's default.
  double load_rate = 0;
  double load_duration = 0;  // s
  std::size_t load_connections = 0;
  // The soak's churn; each unset: its default (suites::kSoakChurn).
  std::optional<double> churn_fresh, churn_server_close, churn_abort;
  std::optional<std::size_t> churn_replace_every;
  std::string json_path;
  std::string junit_path;
  std::string runs_root = "loiter-runs";
  bool list = false;
  bool list_markdown = false;  // --list-markdown: the catalogue as docs/scenarios.md's table
  // A shard of a run split over machines (shard.hpp): "k/K", the shared start (RFC 3339
  // UTC), the server's address, and the one address off loopback the user allows.
  std::string shard;
  std::string start_at;
  std::string connect;
  std::string allow_remote;
  // --connect without --shard (connect.hpp): the server's PID, and whether --target was
  // given (a run against a server loiter did not start needs its promises named).
  std::optional<int> pid;
  bool target_given = false;
};

void add_check_options(CLI::App& command, CheckOptions& options);

// The key settings the command line gave: --header-timeout and the like as their --set
// first, then each --set in order.
std::vector<std::string> key_settings(const CheckOptions& options);
// The target a check runs against: a bundled one or a target file with its key settings,
// the reference server with its --fault too. Throws std::invalid_argument for a bad one.
fixtures::Target chosen_target(const CheckOptions& options);
// The target a name (bundled, reference-tls, reference-h2c, reference-h2) or target file stands for.
fixtures::Target chosen_target(const std::string& name);
// The scenario parameters the command line set (0 or unset: the scenario's own).
suites::ScenarioParameters parameters_of(const CheckOptions& options);

// Returns the process exit code.
int run_check(const CheckOptions& options);

}  // namespace loiter::cli
