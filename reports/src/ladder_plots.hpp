// The plots of ladder.html as plain Plots (run_report.hpp), drawn by svg_plot like a run's.
// Private to reports/.
#pragma once

#include <vector>

#include "loiter/reports/ladder.hpp"
#include "loiter/reports/run_report.hpp"

namespace loiter::reports::ladder_plots {

// One side's rate steps: requested, dispatched and 2xx a second against the requested rate;
// a client-limited step a point of its own (what was dispatched) and a line where it stands;
// the knee a line; id "rates-<role>". Empty series when the side has no rate steps.
Plot rates(const LadderSide& side);

// p99 per rate step against the requested rate, a series per side, the bound a line (or, far
// above every p99, named in the title); id "p99".
Plot p99(const Ladder& ladder);

// Saturation: 2xx a second against the connections, a series per side; id "saturation".
Plot saturation(const Ladder& ladder);

}  // namespace loiter::reports::ladder_plots
