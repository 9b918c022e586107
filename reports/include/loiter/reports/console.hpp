// The console summary: one line per scenario, then the findings of those that failed.
#pragma once

#include <ostream>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

struct ConsoleStyle {
  bool color = false;  // ANSI colours; only when writing to a terminal
};

void render_console(const RunReport& report, std::ostream& out, ConsoleStyle style = {});

}  // namespace loiter::reports
