// The denial ladder's plots: plain series from the steps' figures, nothing computed anew but
// the 2xx share (of the requests due) in percent.
#include "denial_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ladder_words.hpp"

namespace loiter::reports::denial_plots {

namespace {

// How far above the highest p99 the bound may lie and still be drawn (as the ladder's).
constexpr double kBoundOffScale = 5;

// A series' name: the role in a comparison, where two sides share a plot; the figure alone.
std::string series_name(const Denial& denial, const DenialSide& side, const std::string& what) {
  return denial.sides.size() > 1 ? side.role + " " + what : what;
}

const DenialKind* kind_of(const DenialSide& side, const std::string& kind) {
  const auto found = std::ranges::find(side.kinds, kind, &DenialKind::kind);
  return found == side.kinds.end() ? nullptr : &*found;
}

// One series per side of `figure` over the kind's steps, in `plot`; each side's knee a line.
// A step whose figure is NaN has no point (a p99 where nothing was answered).
template <class Figure>
void add_sides(const Denial& denial, const std::string& kind, const std::string& what,
               Figure figure, Plot& plot, bool knees) {
  for (const auto& side : denial.sides) {
    const auto* k = kind_of(side, kind);
    if (k == nullptr) continue;
    Series series{.name = series_name(denial, side, what)};
    // The control step (the regular traffic alone) is the series' start, at no held one.
    if (side.control && !std::isnan(figure(*side.control))) {
      series.points.emplace_back(0.0, figure(*side.control));
    }
    for (const auto& step : k->steps) {
      if (!std::isnan(figure(step))) series.points.emplace_back(static_cast<double>(step.held), figure(step));
    }
    plot.series.push_back(std::move(series));
    if (knees && k->knee) {
      const auto at = static_cast<double>(*k->knee);
      plot.marks.push_back({.label = series_name(denial, side, "knee ") + ladder_words::count(at),
                            .axis = "x",
                            .from = at,
                            .to = at});
    }
  }
}

Plot attacker(const std::string& id, const std::string& unit) {
  return {.id = id, .x_unit = "held connections", .y_unit = unit, .style = PlotStyle::line};
}

}  // namespace

std::vector<std::string> kinds(const Denial& denial) {
  std::vector<std::string> out;
  for (const auto& side : denial.sides) {
    for (const auto& kind : side.kinds) {
      if (std::ranges::find(out, kind.kind) == out.end()) out.push_back(kind.kind);
    }
  }
  return out;
}

TwoAxes share(const Denial& denial, const std::string& kind) {
  TwoAxes plots{.left = {.id = "share-" + kind,
                         .title = kind + ": regular 2xx share, and the attacker's reopens/s",
                         .x_unit = "held connections",
                         .y_unit = "2xx share (%)",
                         .style = PlotStyle::line},
                .right = attacker("reopens-" + kind, "reopens/s")};
  add_sides(
      denial, kind, "2xx share",
      [](const DenialStep& s) {
        return s.requested == 0
                   ? 0.0
                   : 100.0 * static_cast<double>(s.succeeded) / static_cast<double>(s.requested);
      },
      plots.left, true);
  if (denial.least_2xx_share > 0) {
    const double least = 100 * denial.least_2xx_share;
    plots.left.marks.push_back({.label = "least " + ladder_words::percent(denial.least_2xx_share),
                                .axis = "y",
                                .from = least,
                                .to = least});
  }
  add_sides(
      denial, kind, "reopens/s", [](const DenialStep& s) { return s.connects_per_s; }, plots.right,
      false);
  return plots;
}

TwoAxes p99(const Denial& denial, const std::string& kind) {
  TwoAxes plots{.left = {.id = "p99-" + kind,
                         .title = kind + ": regular p99, and the attacker's bytes/s",
                         .x_unit = "held connections",
                         .y_unit = "p99 (ms)",
                         .style = PlotStyle::line},
                .right = attacker("bytes-" + kind, "attacker bytes/s")};
  add_sides(
      denial, kind, "p99",
      [](const DenialStep& s) { return s.succeeded > 0 ? s.p99_ms : std::nan(""); }, plots.left,
      true);
  double highest = 0;
  for (const auto& series : plots.left.series) {
    for (const auto& point : series.points) highest = std::max(highest, point.second);
  }
  // The bound as a line, unless so far above every p99 that it would flatten them all.
  if (denial.p99_bound_ms > kBoundOffScale * highest) {
    plots.left.title += fmt::format(" (the {} ms bound is off the scale)",
                                    ladder_words::figure(denial.p99_bound_ms));
  } else if (denial.p99_bound_ms > 0) {
    plots.left.marks.push_back(
        {.label = "p99 bound " + ladder_words::figure(denial.p99_bound_ms) + " ms",
         .axis = "y",
         .from = denial.p99_bound_ms,
         .to = denial.p99_bound_ms});
  }
  add_sides(
      denial, kind, "bytes/s", [](const DenialStep& s) { return s.bytes_per_s; }, plots.right,
      false);
  return plots;
}

}  // namespace loiter::reports::denial_plots
