// Axis ranges and round ticks.
#include "svg_scale.hpp"

#include <algorithm>
#include <cmath>

namespace loiter::reports::svg {

namespace {

struct Extent {
  double low = INFINITY;
  double high = -INFINITY;
  void add(double v) {
    if (!std::isfinite(v)) return;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  Range range() const {
    if (low > high) return {0, 1};
    if (low == high) return {low - (low == 0 ? 0 : std::fabs(low) / 2), high + 1};
    return {low, high};
  }
};

}  // namespace

Ranges ranges_of(const Plot& plot) {
  Extent x, y;
  y.add(0);
  for (const auto& series : plot.series) {
    for (const auto& [px, py] : series.points) {
      x.add(px);
      y.add(py);
    }
  }
  for (const auto& mark : plot.marks) {
    auto& extent = mark.axis == "x" ? x : y;
    extent.add(mark.from);
    extent.add(mark.to);
  }
  return {x.range(), y.range()};
}

std::vector<double> ticks(Range& range, int wanted) {
  const double raw = range.span() / std::max(wanted, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= raw) break;
  }
  range.low = std::floor(range.low / step) * step;
  range.high = std::ceil(range.high / step) * step;
  std::vector<double> result;
  for (double v = range.low; v <= range.high + step / 2; v += step) {
    result.push_back(std::fabs(v) < step / 1e6 ? 0.0 : v);
  }
  return result;
}

}  // namespace loiter::reports::svg
