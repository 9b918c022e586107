// The plots of denial.html as plain Plots (run_report.hpp), each with a second plot of the
// attacker's cost drawn against a right axis (svg::render_plot's two-axis form). Private to
// reports/.
#pragma once

#include <string>
#include <vector>

#include "loiter/reports/denial.hpp"
#include "loiter/reports/run_report.hpp"

namespace loiter::reports::denial_plots {

// A plot's left-axis series and, on the right axis, the attacker's.
struct TwoAxes {
  Plot left;
  Plot right;
};

// The kinds of stall run on any side, in the order they first appear.
std::vector<std::string> kinds(const Denial& denial);

// Each side's control step (the regular traffic alone), when it has one, is its series'
// point at 0 held.
//
// Against the held connections of `kind`: the regular traffic's 2xx share (%) per side, the
// least share a line, each side's knee a line; the attacker's reopens/s on the right axis.
// id "share-<kind>".
TwoAxes share(const Denial& denial, const std::string& kind);

// Against the held connections of `kind`: the regular traffic's p99 (ms) per side, the bound
// a line (or, far above every p99, named in the title), each side's knee a line; the bytes/s
// the held connections sent on the right axis. id "p99-<kind>".
TwoAxes p99(const Denial& denial, const std::string& kind);

}  // namespace loiter::reports::denial_plots
