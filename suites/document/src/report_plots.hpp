// The plots of a scenario's report, derived from its plain observations: server FDs, open
// connections by kind and ending, the closure strip against the deadline window, TCP states,
// RSS. Times on the x axis are seconds since the observation's origin. Private to the document.
#pragma once

#include <optional>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/judge/soak_figures.hpp"

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

// A soak (report_plots_soak.cpp): "soak-fds", the server's FDs by type (in all where types
// were not counted) and its connections, and "soak-rss", its RSS in MiB; each with the
// second half's fitted slopes as dashed segments over [fit_from, traffic_end], their values
// per minute in the legend and title, the traffic's span shaded.
std::vector<reports::Plot> soak_plots(const Observation& observation, const SoakFigures& figures,
                                      clients::Clock::time_point origin);
// Its table: "<type> FDs" start/peak/end (types ever present), "at rest" (threads and
// connections at start and end), "drift" (the fitted slopes per minute).
std::vector<reports::FigureGroup> soak_groups(const SoakFigures& figures);

// The client's own cost (report_client.cpp). A load scenario's, where the load engine
// measured it: "client" (its load thread's want of a CPU over the load's wall time, the
// fleet thread's over the drive where the waiting connections ran in loiter's process,
// loiter's cores and CPU seconds over the load) and "client CPU per request" (µs, the
// schedule's first and last window past its first and last seconds, which hold the pool's
// opening and the drain: a quarter of the run, at most a minute), and beside it "server CPU
// per request" over the same windows from the sampler's readings (a machine that slowed both
// is not a client that grew); the plot "client-cpu", loiter's CPU per second and the
// server's. Without load: "client" of the fleet's thread over the drive.
inline constexpr std::size_t kClientEdge = 60;  // s
struct ClientEdges {
  std::size_t window = 0;             // s
  std::size_t from = 0, to = 0;       // the seconds the windows are taken from: [from, to)
  std::optional<double> first, last;  // µs per request; none: the window dispatched none
};
ClientEdges client_edges(const clients::LoadResult& load);
std::vector<reports::FigureGroup> client_groups(const Observation& o);
std::optional<reports::Plot> client_plot(const Observation& o, clients::Clock::time_point origin);

}  // namespace loiter::suites::plots
