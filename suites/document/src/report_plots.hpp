// The plots of a scenario's report, derived from its plain observations: server FDs, open
// connections by kind and ending, the closure strip against the deadline window, TCP states,
// RSS. Times on the x axis are seconds since the observation's origin. Private to the document.
#pragma once

#include <optional>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites::plots {

std::vector<reports::Plot> scenario_plots(const Observation& observation,
                                          const Expectations& expectations);

// TCP states of the server's port over time, both ends; nullopt when no sample has them.
std::optional<reports::Plot> tcp_plot(const Observation& observation,
                                      clients::Clock::time_point origin);
// The server's RSS (MiB) and threads over time.
reports::Plot rss_plot(const Observation& observation, clients::Clock::time_point origin);

// The RSS peak in KiB, from the timeline (nullopt where it is empty).
reports::FigureGroup rss_figures(const Observation& observation);

}  // namespace loiter::suites::plots
