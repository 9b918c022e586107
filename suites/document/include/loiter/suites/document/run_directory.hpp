// The run directory of one `loiter check` (or `loiter drive`) run:
//   <root>/<UTC timestamp>-<target>/   never overwritten (a suffix -2, -3, ... when taken)
//     report.json, report.html         the run document and its rendering
//     provenance.json                  each scenario's server: binary, SHA-256, command, limits
//     records/<scenario>.jsonl         one JSON object per connection
//     timeline/<scenario>.json         the sampled FDs, RSS, threads, TCP states
//     servers/<scenario>/              the server's own run directory: server.stderr, configs
#pragma once

#include <boost/json/array.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/runner/files.hpp"  // write_file, which callers use beside it
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/running_server.hpp"

namespace loiter::suites {

class RunDirectory {
 public:
  // Creates the directory; throws std::runtime_error naming the path when it cannot.
  RunDirectory(const std::filesystem::path& root, std::string_view target);

  const std::filesystem::path& path() const { return path_; }
  // Where the server of `scenario` keeps its files (ScenarioParameters::server_dir).
  std::filesystem::path server_dir(std::string_view scenario) const;

  // Writes the scenario's raw records and timeline, and keeps its provenance.
  void add_scenario(const ScenarioResult& result);
  // Runs the scenario with its server's files here and adds its result (unless skipped);
  // against `running` when given, a server loiter did not start. nullopt, with `error` set,
  // when the harness could not run it (HarnessError, a limit such as RLIMIT_NOFILE): the
  // caller reports that as an error, not as a verdict.
  std::optional<ScenarioResult> run(const Scenario& scenario, const fixtures::Target& target,
                                    const Timing& timing, ScenarioParameters parameters,
                                    std::string& error,
                                    const std::optional<RunningServer>& running = std::nullopt);
  // Writes report.json, report.html and provenance.json.
  void write_report(const reports::RunReport& report) const;

 private:
  std::filesystem::path path_;
  boost::json::array provenance_;
};

// Creates and returns "<root>/<stamp>-<target>", or the first of "-2", "-3", ... appended
// that no one has made yet: each name is claimed by one mkdir, so runs started at the same
// moment get distinct directories. Throws std::runtime_error naming the path on failure.
std::filesystem::path make_run_path(const std::filesystem::path& root, std::string_view stamp,
                                    std::string_view target);


// report.html next to report.json, rendered from `report`.
void write_html(const std::filesystem::path& path, const reports::RunReport& report);

}  // namespace loiter::suites
