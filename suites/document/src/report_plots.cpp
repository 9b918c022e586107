// Plots from an Observation: plain points computed once, when the scenario is reported, so
// that report.html renders from the run document alone.
#include "report_plots.hpp"

#include "loiter/suites/judge/judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "loiter/fixtures/probe/tcp_states.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/document/report.hpp"

namespace loiter::suites::plots {

namespace {

using clients::ConnectionRecord;
using clients::Ending;
using reports::Mark;
using reports::Plot;
using reports::PlotStyle;
using reports::Series;

// Started, and not refused. An interrupted run leaves records whose slot never came.
bool connected(const ConnectionRecord& r) {
  return r.ending != Ending::connect_failed && r.connect_start != clients::Clock::time_point{} &&
         r.connect_took > Duration::zero();
}

// Its ending was observed (an interrupted run leaves connections that never ended).
bool finished(const ConnectionRecord& r) {
  return r.ended_at > Duration::zero() || r.client_closed > Duration::zero();
}

// Vertical marks on a time axis: the window in which the server had to end connections,
// and when the last client was done.
std::vector<Mark> time_marks(const Observation& o, const Expectations& e,
                             clients::Clock::time_point origin) {
  std::vector<Mark> marks;
  double first = INFINITY, last = -INFINITY, done = -INFINITY;
  for (const auto& r : o.connections) {
    if (!connected(r)) continue;
    const double at = in_seconds(r.connected() - origin);
    if (finished(r)) done = std::max(done, at + in_seconds(r.ended_at));
    if (!e.closure) continue;
    if (const auto start = deadline_origin(r, e.closure->since)) {
      first = std::min(first, at + in_seconds(*start));
      last = std::max(last, at + in_seconds(*start));
    }
  }
  if (e.closure && first <= last) {
    marks.push_back({.label = "deadline window",
                     .axis = "x",
                     .from = first + in_seconds(e.closure->deadline - e.closure->slack),
                     .to = last + in_seconds(e.closure->deadline + e.closure->slack)});
  }
  if (std::isfinite(done))
    marks.push_back({.label = "clients done", .axis = "x", .from = done, .to = done});
  return marks;
}

Plot fd_plot(const Observation& o, const Expectations& e, clients::Clock::time_point origin) {
  Plot plot{.id = "fds",
            .title = "server FDs (whole process tree)",
            .x_unit = "s",
            .y_unit = "FDs",
            .style = PlotStyle::step};
  Series fds{.name = "FDs", .points = {}};
  for (const auto& s : o.timeline)
    fds.points.emplace_back(in_seconds(s.at - origin), static_cast<double>(s.sample.fds));
  plot.series.push_back(std::move(fds));
  const auto baseline = static_cast<double>(o.fds.baseline);
  plot.marks.push_back({.label = "baseline", .axis = "y", .from = baseline, .to = baseline});
  if (e.fds_after > 0) {
    const double allowed = baseline + static_cast<double>(e.fds_after);
    plot.marks.push_back({.label = "allowed after", .axis = "y", .from = allowed, .to = allowed});
  }
  for (auto& mark : time_marks(o, e, origin)) plot.marks.push_back(std::move(mark));
  return plot;
}

// Connections open at each moment, one series per kind and ending.
Plot open_plot(const Observation& o, const Expectations& e, clients::Clock::time_point origin) {
  std::map<std::string, std::vector<std::pair<double, int>>> events;
  for (const auto& r : o.connections) {
    if (!connected(r)) continue;
    const double at = in_seconds(r.connected() - origin);
    auto& list = events[fmt::format("{} → {}", r.kind, clients::ending_label(r))];
    list.emplace_back(at, 1);
    if (finished(r)) list.emplace_back(at + in_seconds(r.ended_at), -1);
  }
  Plot plot{.id = "open",
            .title = "open connections by kind → ending",
            .x_unit = "s",
            .y_unit = "connections",
            .style = PlotStyle::step};
  for (auto& [name, list] : events) {
    std::ranges::sort(list);
    Series series{.name = name, .points = {{0.0, 0.0}}};
    int open = 0;
    for (const auto& [at, step] : list) {
      open += step;
      series.points.emplace_back(at, open);
    }
    plot.series.push_back(std::move(series));
  }
  plot.marks = time_marks(o, e, origin);
  return plot;
}

// The closure plot's axis: seconds since the moment its deadline runs from.
std::string since_axis(Since since) {
  switch (since) {
    case Since::connect:
    case Since::first_initial:
      return "s since connect";
    case Since::first_send:
      return "s since the request head";
    case Since::second_send:
      return "s since the second request head";
    case Since::handshake:
      return "s since the handshake";
    case Since::quiet:
      return "s since the client's last packet";
    case Since::stream_open:
      return "s since the stream's open";
    case Since::stream_headers:
      return "s since the stream's HEADERS";
    case Since::stream_request:
      return "s since the request";
    case Since::last_response:
      break;
  }
  return "s since the last response";
}

// One dot per connection: when it ended, since the moment its deadline runs from.
Plot closure_plot(const Observation& o, const Expectations& e) {
  const Since since = e.closure ? e.closure->since : Since::connect;
  Plot plot{.id = "closure",
            .title = e.closure ? "closure time per connection, against the deadline window"
                               : "ending time per connection",
            .x_unit = since_axis(since),
            .y_unit = "connection",
            .style = PlotStyle::dots};
  std::map<std::string, Series> by_ending;
  for (std::size_t i = 0; i < o.connections.size(); ++i) {
    const auto& r = o.connections[i];
    const auto start = deadline_origin(r, since);
    if (!connected(r) || !finished(r) || !start) continue;
    auto& series = by_ending[clients::ending_label(r)];
    series.name = clients::ending_label(r);
    series.points.emplace_back(in_seconds(r.ended_at - *start), static_cast<double>(i));
  }
  for (auto& [name, series] : by_ending) plot.series.push_back(std::move(series));
  if (e.closure) {
    const auto& c = *e.closure;
    plot.marks.push_back({.label = "deadline ± slack",
                          .axis = "x",
                          .from = in_seconds(c.deadline - c.slack),
                          .to = in_seconds(c.deadline + c.slack)});
    plot.marks.push_back(
        {.label = "deadline", .axis = "x", .from = in_seconds(c.deadline), .to = in_seconds(c.deadline)});
  }
  return plot;
}

// A scenario that mixes kinds: one closure strip per kind, against that kind's own window.
std::vector<Plot> kind_closure_plots(const Observation& o, const Expectations& e) {
  std::vector<Plot> plots;
  for (const auto& closure : e.kind_closures) {
    Observation subset;
    for (const auto& r : o.connections) {
      if (r.kind == closure.kind) subset.connections.push_back(r);
    }
    Expectations one = e;
    one.closure = closure;
    auto plot = closure_plot(subset, one);
    plot.id = "closure-" + closure.kind;
    plot.title = closure.kind + ": " + plot.title;
    plots.push_back(std::move(plot));
  }
  return plots;
}

}  // namespace

std::vector<Plot> scenario_plots(const Observation& o, const Expectations& e) {
  const auto origin = observation_origin(o);
  std::vector<Plot> result{fd_plot(o, e, origin)};
  if (o.connections.empty() && o.load) {
    // Regular traffic alone (the soak): no connection of a kind to show open or closed.
  } else if (e.kind_closures.empty()) {
    result.push_back(open_plot(o, e, origin));
    result.push_back(closure_plot(o, e));
  } else {
    result.push_back(open_plot(o, e, origin));
    result.push_back(closure_plot(o, e));  // every ending together, since connect
    for (auto& plot : kind_closure_plots(o, e)) result.push_back(std::move(plot));
  }
  if (auto tcp = tcp_plot(o, origin)) result.push_back(std::move(*tcp));
  result.push_back(rss_plot(o, origin));
  return result;
}

}  // namespace loiter::suites::plots
