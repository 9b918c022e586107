// One Plot as an inline <svg>: axes with round ticks, series as lines, steps or dots, marks
// as dashed lines or shaded bands, a legend; optionally a second plot's series against a
// right axis of their own. Private to reports/.
#pragma once

#include <string>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::svg {

std::string render_plot(const Plot& plot, const std::string& id);

// As above, with `right`'s series (dotted, "(right)" in the legend) drawn against a
// y axis of their own on the right, labelled with right.y_unit; the x axis is shared (it
// fits both plots' points). The title, style and marks are `plot`'s; `right`'s are not
// drawn. A `right` without series draws as the one-axis plot.
std::string render_plot(const Plot& plot, const Plot& right, const std::string& id);

}  // namespace loiter::reports::svg
