// The client's own cost in a load scenario's report (report_plots.hpp): what loiter's load
// thread and process spent on the regular traffic, as the load engine measured it.
#include <algorithm>
#include <cmath>
#include <iterator>

#include "loiter/suites/judge/in_units.hpp"
#include "report_plots.hpp"

namespace loiter::suites::plots {

namespace {

// `cpu` seconds spent over seconds [from, to) of the schedule, per request dispatched in
// them, µs; none without a figure or when those seconds dispatched nothing.
std::optional<double> us_per_request(std::optional<double> cpu,
                                     const std::vector<clients::LoadSecond>& seconds,
                                     std::size_t from, std::size_t to) {
  std::uint64_t dispatched = 0;
  for (std::size_t k = from; k < to; ++k) dispatched += seconds[k].dispatched;
  if (!cpu || dispatched == 0) return std::nullopt;
  return *cpu * 1e6 / static_cast<double>(dispatched);
}

// loiter's CPU over seconds [from, to) of the schedule, s.
double client_cpu_over(const std::vector<clients::LoadSecond>& seconds, std::size_t from,
                       std::size_t to) {
  double cpu = 0;
  for (std::size_t k = from; k < to; ++k) cpu += seconds[k].client_cpu_s;
  return cpu;
}

// A measured share or time as a reader takes it in: three decimals (µs per request: one),
// the nearest double to that decimal (0.284, not 0.28400000000000003).
double rounded(double value, double per_unit = 1e3) { return std::round(value * per_unit) / per_unit; }
std::optional<double> rounded(std::optional<double> value) {
  if (!value) return value;
  return rounded(*value, 10);
}

// The server's processes' CPU, summed since they started, at `t`: interpolated between the
// sampler's readings around it; none outside the timeline.
std::optional<double> server_cpu_at(const std::vector<fixtures::TimedSample>& timeline,
                                    clients::Clock::time_point t) {
  const auto after = std::ranges::lower_bound(timeline, t, {}, &fixtures::TimedSample::at);
  if (after == timeline.end() || (after == timeline.begin() && after->at != t)) return std::nullopt;
  if (after->at == t) return after->sample.cpu_seconds;
  const auto before = std::prev(after);
  const double share = in_seconds(t - before->at) / in_seconds(after->at - before->at);
  return before->sample.cpu_seconds +
         share * (after->sample.cpu_seconds - before->sample.cpu_seconds);
}

// The server's CPU from `from` to `to`; none where the timeline does not span them or the
// sum fell (a process of the server's exited with its CPU).
std::optional<double> server_cpu_between(const Observation& o, clients::Clock::time_point from,
                                         clients::Clock::time_point to) {
  const auto a = server_cpu_at(o.timeline, from);
  const auto b = server_cpu_at(o.timeline, to);
  if (!a || !b || *b < *a) return std::nullopt;
  return *b - *a;
}

// The same over seconds [from, to) of the load's schedule.
std::optional<double> server_cpu_over(const Observation& o, const clients::LoadResult& load,
                                      std::size_t from, std::size_t to) {
  const auto second = [&](std::size_t k) { return load.started + std::chrono::seconds(k); };
  return server_cpu_between(o, second(from), second(to));
}

// The server's CPU over the load, in cores: over the load's span from its start to its end,
// as the client's "cores" is, so the two compare.
std::optional<double> server_cores(const Observation& o, const clients::LoadResult& load) {
  const double wall = in_seconds(load.ended - load.started);
  const auto cpu = server_cpu_between(o, load.started, load.ended);
  if (!cpu || wall <= 0) return std::nullopt;
  return rounded(*cpu / wall);
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
  edges.from = spare;
  edges.to = n - spare;
  const auto client_us = [&](std::size_t from, std::size_t to) {
    return us_per_request(client_cpu_over(seconds, from, to), seconds, from, to);
  };
  edges.first = client_us(edges.from, edges.from + edges.window);
  edges.last = client_us(edges.to - edges.window, edges.to);
  return edges;
}

std::vector<reports::FigureGroup> client_groups(const Observation& o) {
  const auto fleet_busy = [&]() -> std::optional<double> {
    if (!o.fleet_cost) return std::nullopt;
    return rounded(o.fleet_cost->busy);
  };
  if (!o.load) {
    if (!o.fleet_cost) return {};
    const auto& cost = *o.fleet_cost;
    return {{.name = "client",
             .unit = "",
             .values = {{"fleet busy", fleet_busy()},
                        {"cores", rounded(cost.cores())},
                        {"CPU s", rounded(cost.cpu_s)}}}};
  }
  const auto& load = o.load->result;
  const auto& cost = load.client;
  if (cost.wall_s <= 0) return {};  // a document from before loiter measured it
  reports::FigureGroup client{.name = "client", .unit = "", .values = {}};
  client.values.emplace_back("load busy", rounded(cost.busy));
  if (o.fleet_cost && !o.connections.empty()) {  // waiting connections beside the load
    client.values.emplace_back("fleet busy", fleet_busy());
  }
  client.values.emplace_back("cores", rounded(cost.cores()));
  client.values.emplace_back("CPU s", rounded(cost.cpu_s));
  if (const auto server = server_cores(o, load)) client.values.emplace_back("server cores", server);
  std::vector<reports::FigureGroup> groups{std::move(client)};
  const auto edges = client_edges(load);
  if (edges.first || edges.last) {
    groups.push_back({.name = "client CPU per request",
                      .unit = "us",
                      .values = {{"first", rounded(edges.first)}, {"last", rounded(edges.last)}}});
    const auto server_us = [&](std::size_t from, std::size_t to) {
      return us_per_request(server_cpu_over(o, load, from, to), load.seconds, from, to);
    };
    const auto first = server_us(edges.from, edges.from + edges.window);
    const auto last = server_us(edges.to - edges.window, edges.to);
    if (first || last) {
      groups.push_back({.name = "server CPU per request",
                        .unit = "us",
                        .values = {{"first", rounded(first)}, {"last", rounded(last)}}});
    }
  }
  return groups;
}

std::optional<reports::Plot> client_plot(const Observation& o, clients::Clock::time_point origin) {
  const auto& load = o.load->result;
  if (load.client.wall_s <= 0 || load.seconds.empty()) return std::nullopt;
  reports::Plot plot{.id = "client-cpu",
                     .title = "loiter's own CPU per second (its whole process), and the server's, in cores",
                     .x_unit = "s",
                     .y_unit = "cores",
                     .style = reports::PlotStyle::line};
  plot.series = {{"loiter", {}}, {"server", {}}};
  const double offset = in_seconds(load.started - origin);
  for (std::size_t k = 0; k < load.seconds.size(); ++k) {
    const double x = offset + static_cast<double>(k) + 0.5;
    plot.series[0].points.emplace_back(x, load.seconds[k].client_cpu_s);
    if (const auto server = server_cpu_over(o, load, k, k + 1)) {
      plot.series[1].points.emplace_back(x, *server);
    }
  }
  if (plot.series[1].points.empty()) plot.series.pop_back();
  return plot;
}

}  // namespace loiter::suites::plots
