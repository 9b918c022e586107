// Axis ranges and round tick values for the SVG plots. Private to reports/.
#pragma once

#include <vector>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::svg {

struct Range {
  double low = 0;
  double high = 1;
  double span() const { return high - low; }
};

struct Ranges {
  Range x;
  Range y;
};

// Every point and mark fits; y starts at 0 unless a value is negative; an empty or flat
// range is widened so it can be drawn.
Ranges ranges_of(const Plot& plot);

// Round values (1, 2 or 5 × 10^k apart) covering `range`, about `wanted` of them; the
// range is widened to the outer ticks.
std::vector<double> ticks(Range& range, int wanted = 5);

}  // namespace loiter::reports::svg
