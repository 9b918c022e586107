// The ladder's plots: plain series from the steps' medians, nothing computed anew.
#include "ladder_plots.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ladder_words.hpp"

namespace loiter::reports::ladder_plots {

namespace {

// How far above the highest p99 the bound may lie and still be drawn.
constexpr double kBoundOffScale = 5;

// A series' name: the role in a comparison, where two sides share a plot; the figure alone.
std::string series_name(const Ladder& ladder, const LadderSide& side, const std::string& what) {
  return ladder.sides.size() > 1 ? side.role + " " + what : what;
}

}  // namespace

Plot rates(const LadderSide& side) {
  Plot plot{.id = "rates-" + side.role,
            .title = ladder_words::side_name(side) + ": rate steps",
            .x_unit = "requested rate (/s)",
            .y_unit = "requests/s",
            .style = PlotStyle::line,
            .series = {{.name = "requested"},
                       {.name = "dispatched"},
                       {.name = "2xx"},
                       {.name = "client-limited"}}};
  for (const auto& step : side.steps) {
    if (step.kind != StepKind::rate) continue;
    plot.series[0].points.emplace_back(step.rate, step.requested_rate);
    plot.series[1].points.emplace_back(step.rate, step.dispatched_rate);
    plot.series[2].points.emplace_back(step.rate, step.succeeded_rate);
    if (step.limit == Limit::client || step.limit == Limit::both) {
      // What the client could dispatch, drawn over the lines, and a line where it stands.
      plot.series[3].points.emplace_back(step.rate, step.dispatched_rate);
      plot.marks.push_back({.label = "client limit " + ladder_words::step(step),
                            .axis = "x",
                            .from = step.rate,
                            .to = step.rate});
    }
  }
  if (plot.series[3].points.empty()) plot.series.pop_back();
  if (side.knee) {
    plot.marks.push_back({.label = "knee " + ladder_words::rate(*side.knee) + "/s",
                          .axis = "x",
                          .from = *side.knee,
                          .to = *side.knee});
  }
  return plot;
}

Plot p99(const Ladder& ladder) {
  Plot plot{.id = "p99",
            .title = "p99 per rate step",
            .x_unit = "requested rate (/s)",
            .y_unit = "p99 (ms)",
            .style = PlotStyle::line};
  for (const auto& side : ladder.sides) {
    Series series{.name = series_name(ladder, side, "p99")};
    for (const auto& step : side.steps) {
      if (step.kind == StepKind::rate) series.points.emplace_back(step.rate, step.p99_ms);
    }
    plot.series.push_back(std::move(series));
  }
  // The bound as a line, unless it lies so far above every p99 that drawing it would flatten
  // them all against the axis: then the title says where it is.
  double highest = 0;
  for (const auto& series : plot.series) {
    for (const auto& point : series.points) highest = std::max(highest, point.second);
  }
  if (ladder.p99_bound_ms > kBoundOffScale * highest) {
    plot.title += fmt::format(" (the {} ms bound is off the scale)",
                              ladder_words::figure(ladder.p99_bound_ms));
  } else if (ladder.p99_bound_ms > 0) {
    plot.marks.push_back({.label = "p99 bound " + ladder_words::figure(ladder.p99_bound_ms) + " ms",
                          .axis = "y",
                          .from = ladder.p99_bound_ms,
                          .to = ladder.p99_bound_ms});
  }
  return plot;
}

Plot saturation(const Ladder& ladder) {
  Plot plot{.id = "saturation",
            .title = "saturation: 2xx/s at fixed connections",
            .x_unit = "connections",
            .y_unit = "2xx/s",
            .style = PlotStyle::line};
  for (const auto& side : ladder.sides) {
    Series series{.name = series_name(ladder, side, "2xx/s")};
    for (const auto& step : side.steps) {
      if (step.kind == StepKind::saturation) {
        series.points.emplace_back(static_cast<double>(step.connections), step.succeeded_rate);
      }
    }
    plot.series.push_back(std::move(series));
  }
  return plot;
}

}  // namespace loiter::reports::ladder_plots
