#include "loiter/suites/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

#include "loiter/suites/report_load.hpp"
#include "report_plots.hpp"

namespace loiter::suites {

namespace {

using clients::Ending;

reports::FigureGroup closure_figures(const Observation& observation) {
  std::vector<double> times;
  for (const auto& record : observation.connections) {
    if (record.ending == Ending::close || record.ending == Ending::reset) {
      times.push_back(std::chrono::duration<double>(record.ended_at).count());
    }
  }
  reports::FigureGroup group{.name = "closure", .unit = "s", .values = {}};
  std::optional<double> min, median, max;
  if (!times.empty()) {
    std::ranges::sort(times);
    min = times.front();
    median = times[times.size() / 2];
    max = times.back();
  }
  group.values = {{"min", min}, {"median", median}, {"max", max}};
  return group;
}

reports::FigureGroup fd_figures(const FdObservation& fds) {
  const auto as_number = [](std::size_t n) {
    return std::optional<double>(static_cast<double>(n));
  };
  return {.name = "FDs",
          .unit = "",
          .values = {{"baseline", as_number(fds.baseline)},
                     {"peak", as_number(fds.peak)},
                     {fds.recovered ? "recovered" : "after", as_number(fds.after)}}};
}

}  // namespace

reports::ScenarioReport to_report(const ScenarioResult& result) {
  reports::ScenarioReport report{.id = result.id};
  if (result.skipped) {
    report.status = reports::Status::skip;
    report.note = *result.skipped;
    return report;
  }
  if (result.interrupted) {
    report.status = reports::Status::error;
    report.note = "interrupted by the user";
    return report;
  }
  report.status = result.verdict.passed ? reports::Status::pass : reports::Status::fail;
  report.findings = result.verdict.findings;
  const auto& observation = result.observation;
  report.figures = {closure_figures(observation), fd_figures(observation.fds),
                    plots::rss_figures(observation)};
  report.plots = plots::scenario_plots(observation, result.expectations);
  add_load_report(report, observation, observation_origin(observation));
  return report;
}

clients::Clock::time_point observation_origin(const Observation& observation) {
  auto origin = clients::Clock::time_point::max();
  if (!observation.timeline.empty()) origin = observation.timeline.front().at;
  for (const auto& record : observation.connections) {
    // A connection whose slot never came (an interrupted run) has no start.
    if (record.connect_start == clients::Clock::time_point{}) continue;
    origin = std::min(origin, record.connect_start);
  }
  return origin == clients::Clock::time_point::max() ? clients::Clock::time_point{} : origin;
}

reports::ScenarioReport error_report(std::string id, std::string error) {
  return {.id = std::move(id),
          .status = reports::Status::error,
          .note = {},
          .findings = {std::move(error)},
          .figures = {}};
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace loiter::suites
