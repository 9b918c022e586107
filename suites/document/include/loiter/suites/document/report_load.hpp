// The report of a scenario's regular traffic (the open-loop load generator): per-second
// requested/dispatched/succeeded/failed and latency percentiles as plots (the figures are
// in report.cpp, load_groups). Templates over the load result type (clients::LoadResult,
// see LOAD_API.md): anything with `started`, `seconds[k].{requested, dispatched, succeeded,
// failed, p50, p99, max}`, `requested`, `dispatched`, `succeeded` and a `from_intended`
// histogram with percentile() and max().
#pragma once

#include <chrono>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

// x: seconds since `origin` (the scenario's observation origin), one point per second of
// the schedule, at the middle of that second.
template <typename LoadResult, typename TimePoint>
std::vector<reports::Plot> load_plots(const LoadResult& load, TimePoint origin) {
  using reports::PlotStyle;
  const double offset = in_seconds(load.started - origin);
  reports::Plot rates{.id = "load-rate",
                      .title = "regular traffic per second (by intended send time)",
                      .x_unit = "s",
                      .y_unit = "requests/s",
                      .style = PlotStyle::line};
  reports::Plot latency{.id = "load-latency",
                        .title = "latency per second, from intended send time",
                        .x_unit = "s",
                        .y_unit = "ms",
                        .style = PlotStyle::line};
  rates.series = {{"requested", {}}, {"dispatched", {}}, {"succeeded", {}}, {"failed", {}}};
  latency.series = {{"p50", {}}, {"p99", {}}, {"max", {}}};
  for (std::size_t k = 0; k < load.seconds.size(); ++k) {
    const auto& second = load.seconds[k];
    const double x = offset + static_cast<double>(k) + 0.5;
    rates.series[0].points.emplace_back(x, static_cast<double>(second.requested));
    rates.series[1].points.emplace_back(x, static_cast<double>(second.dispatched));
    rates.series[2].points.emplace_back(x, static_cast<double>(second.succeeded));
    rates.series[3].points.emplace_back(x, static_cast<double>(second.failed));
    latency.series[0].points.emplace_back(x, in_ms(second.p50));
    latency.series[1].points.emplace_back(x, in_ms(second.p99));
    latency.series[2].points.emplace_back(x, in_ms(second.max));
  }
  return {std::move(rates), std::move(latency)};
}

// Adds the load plots when the observation carries load (Observation::load,
// an optional LoadObservation holding the LoadResult as `result`, from issue 6). Compiles
// to nothing while Observation has no `load` member; fails to compile, loudly, if the
// member arrives in another shape.
template <typename Observation, typename TimePoint>
void add_load_report(reports::ScenarioReport& report, const Observation& observation,
                     TimePoint origin) {
  if constexpr (requires { observation.load; }) {
    if (!observation.load) return;
    const auto& load_observation = *observation.load;
    if constexpr (requires { load_observation.result.seconds; }) {
      const auto& load = load_observation.result;
      for (auto& p : load_plots(load, origin)) report.plots.push_back(std::move(p));
    } else {
      static_assert(
          requires { load_observation.seconds; },
          "LoadObservation: tell add_load_report where its LoadResult is");
      for (auto& p : load_plots(load_observation, origin)) report.plots.push_back(std::move(p));
    }
  }
}

}  // namespace loiter::suites
