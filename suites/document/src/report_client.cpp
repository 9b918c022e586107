// The client's own cost in a load scenario's report (report_plots.hpp): what loiter's load
// thread and process spent on the regular traffic, as the load engine measured it.
#include <algorithm>
#include <cmath>

#include "loiter/suites/judge/in_units.hpp"
#include "report_plots.hpp"

namespace loiter::suites::plots {

namespace {

// loiter's CPU per dispatched request over seconds [from, to) of the schedule, µs; none
// when those seconds dispatched nothing.
std::optional<double> us_per_request(const std::vector<clients::LoadSecond>& seconds,
                                     std::size_t from, std::size_t to) {
  double cpu = 0;
  std::uint64_t dispatched = 0;
  for (std::size_t k = from; k < to; ++k) {
    cpu += seconds[k].client_cpu_s;
    dispatched += seconds[k].dispatched;
  }
  if (dispatched == 0) return std::nullopt;
  return cpu * 1e6 / static_cast<double>(dispatched);
}

// A measured share or time as a reader takes it in: three decimals (µs per request: one).
double rounded(double value, double unit = 1e-3) { return std::round(value / unit) * unit; }
std::optional<double> rounded(std::optional<double> value) {
  if (!value) return value;
  return rounded(*value, 0.1);
}

}  // namespace

ClientEdges client_edges(const clients::LoadResult& load) {
  const auto& seconds = load.seconds;
  ClientEdges edges;
  // The pool's opening and the drain go to the schedule's first and last seconds: past them,
  // where the run is long enough to have seconds to spare (a minute each end in a soak).
  const std::size_t n = seconds.size();
  const std::size_t spare = n >= 8 ? 1 : 0;
  edges.window = std::clamp<std::size_t>((n - 2 * spare) / 4, 1, kClientEdge);
  if (n < 2 * spare + 2 * edges.window) return edges;
  edges.first = us_per_request(seconds, spare, spare + edges.window);
  edges.last = us_per_request(seconds, n - spare - edges.window, n - spare);
  return edges;
}

std::vector<reports::FigureGroup> client_groups(const clients::LoadResult& load) {
  const auto& cost = load.client;
  if (cost.wall_s <= 0) return {};  // a document from before loiter measured it
  std::vector<reports::FigureGroup> groups{
      {.name = "client",
       .unit = "",
       .values = {{"load busy", rounded(cost.load_busy)},
                  {"cores", rounded(cost.cores())},
                  {"CPU s", rounded(cost.cpu_s)}}}};
  const auto edges = client_edges(load);
  if (edges.first || edges.last) {
    groups.push_back({.name = "client CPU per request",
                      .unit = "us",
                      .values = {{"first", rounded(edges.first)}, {"last", rounded(edges.last)}}});
  }
  return groups;
}

std::optional<reports::Plot> client_plot(const clients::LoadResult& load,
                                         clients::Clock::time_point origin) {
  if (load.client.wall_s <= 0 || load.seconds.empty()) return std::nullopt;
  reports::Plot plot{.id = "client-cpu",
                     .title = "loiter's own CPU per second (its whole process), in cores",
                     .x_unit = "s",
                     .y_unit = "cores",
                     .style = reports::PlotStyle::line};
  plot.series = {{"loiter", {}}};
  const double offset = in_seconds(load.started - origin);
  for (std::size_t k = 0; k < load.seconds.size(); ++k) {
    plot.series[0].points.emplace_back(offset + static_cast<double>(k) + 0.5,
                                       load.seconds[k].client_cpu_s);
  }
  return plot;
}

}  // namespace loiter::suites::plots
