// One Plot as an inline <svg>: axes with round ticks, series as lines, steps or dots, marks
// as dashed lines or shaded bands, a legend. Private to reports/.
#pragma once

#include <string>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::svg {

std::string render_plot(const Plot& plot, const std::string& id);

}  // namespace loiter::reports::svg
