// The run directory: where a run's report, raw records, timelines, provenance and server
// logs are kept.
#include "loiter/suites/document/run_directory.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <sstream>

#include "loiter/reports/html.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/suites/document/raw_json.hpp"
#include "loiter/suites/runner/record_json.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "loiter/suites/document/report.hpp"

namespace loiter::suites {

namespace fs = std::filesystem;

fs::path make_run_path(const fs::path& root, std::string_view stamp, std::string_view target) {
  const auto base = fmt::format("{}-{}", stamp, file_safe(target));
  std::error_code error;
  fs::create_directories(root, error);
  if (error) {
    throw std::runtime_error(
        fmt::format("cannot create the runs directory {}: {}", root.string(), error.message()));
  }
  // mkdir is the test and the claim at once: a name another run took meanwhile (EEXIST)
  // moves on to the next suffix, never into that run's directory.
  for (int n = 1;; ++n) {
    const fs::path path = root / (n == 1 ? base : fmt::format("{}-{}", base, n));
    if (fs::create_directory(path, error)) return path;
    if (error) {
      throw std::runtime_error(
          fmt::format("cannot create the run directory {}: {}", path.string(), error.message()));
    }
  }
}

void write_html(const fs::path& path, const reports::RunReport& report) {
  std::ostringstream html;
  reports::render_html(report, html);
  write_file(path, html.str());
}

RunDirectory::RunDirectory(const fs::path& root, std::string_view target)
    : path_(fs::absolute(make_run_path(root, utc_now("%Y%m%dT%H%M%SZ"), target))) {
  fs::create_directory(path_ / "records");
  fs::create_directory(path_ / "timeline");
}

fs::path RunDirectory::server_dir(std::string_view scenario) const {
  return path_ / "servers" / file_safe(scenario);
}

std::optional<ScenarioResult> RunDirectory::run(const Scenario& scenario,
                                                const fixtures::Target& target,
                                                const Timing& timing, ScenarioParameters parameters,
                                                std::string& error,
                                                const std::optional<RunningServer>& running) {
  try {
    parameters.server_dir = server_dir(scenario.id);
    auto result = running ? run_scenario(scenario, target, timing, parameters, *running)
                          : run_scenario(scenario, target, timing, parameters);
    if (!result.skipped) add_scenario(result);
    return result;
  } catch (const std::runtime_error& e) {  // HarnessError, or a limit (RLIMIT_NOFILE)
    error = e.what();
    return std::nullopt;
  }
}

void RunDirectory::add_scenario(const ScenarioResult& result) {
  const auto& observation = result.observation;
  const auto origin = observation_origin(observation);
  std::string lines;
  for (const auto& record : observation.connections) {
    lines += reports::compact_text(record_to_json(record, origin)) + "\n";
  }
  const auto name = file_safe(result.id);
  write_file(path_ / "records" / (name + ".jsonl"), lines);
  // One sample per line.
  const auto timeline = timeline_to_json(observation.timeline, origin).as_object();
  std::string text =
      fmt::format("{{\"unit\": {},\n\"samples\": [", boost::json::serialize(timeline.at("unit")));
  const char* separator = "\n";
  for (const auto& sample : timeline.at("samples").as_array()) {
    text += separator + reports::compact_text(sample);
    separator = ",\n";
  }
  write_file(path_ / "timeline" / (name + ".json"), text + "\n]}\n");
  if (result.provenance) {
    auto entry = provenance_to_json(*result.provenance);
    entry.as_object().emplace("scenario", result.id);
    provenance_.push_back(std::move(entry));
  }
}

void RunDirectory::write_report(const reports::RunReport& report) const {
  write_file(path_ / "report.json", reports::run_report_text(report));
  write_html(path_ / "report.html", report);
  std::ostringstream provenance;
  reports::write_pretty(boost::json::object{{"servers", provenance_}}, provenance);
  write_file(path_ / "provenance.json", provenance.str());
}

}  // namespace loiter::suites
