// A soak's timeline plots and its table, from soak_figures() and the observation only: the
// server's FDs by type and its connections, its RSS, each with the second half's fitted slope
// drawn as a dashed segment; the descriptors by type at start, peak and end, threads and
// connections at start and end, and the p99 of the first and last windows.
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <string_view>

#include "loiter/suites/judge/in_units.hpp"
#include "report_plots.hpp"

namespace loiter::suites::plots {

namespace {

using reports::FigureGroup;
using reports::Plot;
using reports::PlotStyle;
using reports::Series;

std::optional<double> number(const std::optional<std::size_t>& value) {
  if (!value) return std::nullopt;
  return static_cast<double>(*value);
}

// "+0.3", "-1.5": a slope's value per minute as the legend shows it (never "-0.0").
std::string signed_value(double value) {
  if (std::abs(value) < 0.05) value = 0.0;
  return fmt::format("{:+.1f}", value);
}

// The fitted line over [fit_from, traffic_end], in the plot's units (value * scale).
Series fit_series(const std::string& name, const Slope& slope, const SoakFigures& f,
                  clients::Clock::time_point origin, double scale) {
  const double from = in_seconds(f.fit_from - origin);
  const double to = in_seconds(f.traffic_end - origin);
  const double rise = slope.per_second * in_seconds(f.traffic_end - f.fit_from);
  return {.name = name,
          .points = {{from, slope.intercept * scale}, {to, (slope.intercept + rise) * scale}},
          .fit = true};
}

// The traffic's span shaded, and where the fit starts.
std::vector<reports::Mark> traffic_marks(const SoakFigures& f, clients::Clock::time_point origin) {
  const double fit_from = in_seconds(f.fit_from - origin);
  return {{.label = "traffic",
           .axis = "x",
           .from = in_seconds(f.traffic_start - origin),
           .to = in_seconds(f.traffic_end - origin)},
          {.label = "fit from", .axis = "x", .from = fit_from, .to = fit_from}};
}

// One type's count at each sample; empty where no sample counted types or it was always 0.
Series fd_type_series(const Observation& o, std::size_t type, clients::Clock::time_point origin) {
  Series series{.name = fmt::format("{} FDs", fixtures::to_string(static_cast<fixtures::FdType>(type))), .points = {}};
  bool seen = false;
  for (const auto& s : o.timeline) {
    if (!s.sample.fd_types) continue;
    const auto n = s.sample.fd_types->by_type[type];
    seen = seen || n > 0;
    series.points.emplace_back(in_seconds(s.at - origin), static_cast<double>(n));
  }
  if (!seen) series.points.clear();
  return series;
}

// A line, then (where there is one) its fit, drawn in the line's colour.
void add_with_fit(Plot& plot, Series line, const std::optional<Slope>& slope, const SoakFigures& f,
                  clients::Clock::time_point origin) {
  const std::string name = line.name;
  plot.series.push_back(std::move(line));
  if (!slope) return;
  plot.series.push_back(fit_series(
      fmt::format("{} {}/min", name, signed_value(slope->per_minute())), *slope, f, origin, 1.0));
}

// FDs by type (or in all, where types were not counted), then connections, each with its fit.
void add_fd_series(Plot& plot, const Observation& o, const SoakFigures& f,
                   clients::Clock::time_point origin) {
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    auto series = fd_type_series(o, t, origin);
    if (!series.points.empty()) add_with_fit(plot, std::move(series), f.fd_types[t], f, origin);
  }
  if (plot.series.empty()) {
    Series fds{.name = "FDs", .points = {}};
    for (const auto& s : o.timeline)
      fds.points.emplace_back(in_seconds(s.at - origin), static_cast<double>(s.sample.fds));
    add_with_fit(plot, std::move(fds), f.fds, f, origin);
  }
  Series connections{.name = "connections", .points = {}};
  for (const auto& s : o.timeline) {
    if (!s.sample.tcp) continue;
    connections.points.emplace_back(in_seconds(s.at - origin),
                                    static_cast<double>(server_connections(*s.sample.tcp)));
  }
  if (!connections.points.empty())
    add_with_fit(plot, std::move(connections), f.connections, f, origin);
}

}  // namespace

std::vector<Plot> soak_plots(const Observation& o, const SoakFigures& f,
                             clients::Clock::time_point origin) {
  Plot fds{.id = "soak-fds",
           .title = "soak: server FDs by type and connections",
           .x_unit = "s",
           .y_unit = "FDs / connections",
           .style = PlotStyle::step};
  add_fd_series(fds, o, f, origin);
  if (f.fds) fds.title += fmt::format(" (FDs {}/min)", signed_value(f.fds->per_minute()));
  fds.marks = traffic_marks(f, origin);

  Plot rss{.id = "soak-rss",
           .title = "soak: server RSS",
           .x_unit = "s",
           .y_unit = "MiB",
           .style = PlotStyle::step};
  Series resident{.name = "RSS MiB", .points = {}};
  for (const auto& s : o.timeline) {
    resident.points.emplace_back(in_seconds(s.at - origin),
                                 static_cast<double>(s.sample.rss_kib) / 1024.0);
  }
  rss.series.push_back(std::move(resident));
  if (f.rss_kib) {
    const auto text = fmt::format("RSS {} MiB/min", signed_value(f.rss_kib->per_minute() / 1024.0));
    rss.series.push_back(fit_series(text, *f.rss_kib, f, origin, 1.0 / 1024.0));
    rss.title += " (" + text + ")";
  }
  rss.marks = traffic_marks(f, origin);
  return {std::move(fds), std::move(rss)};
}

std::vector<FigureGroup> soak_groups(const SoakFigures& f) {
  std::vector<FigureGroup> groups;
  const auto count = [](const std::optional<fixtures::FdTypes>& types, std::size_t t) {
    return types ? std::optional(static_cast<double>(types->by_type[t])) : std::nullopt;
  };
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    const auto start = count(f.types_start, t), peak = count(f.types_peak, t),
               end = count(f.types_end, t);
    if (start.value_or(0) == 0 && peak.value_or(0) == 0 && end.value_or(0) == 0) continue;
    groups.push_back({.name = fmt::format("{} FDs", fixtures::to_string(static_cast<fixtures::FdType>(t))),
                      .unit = "",
                      .values = {{"start", start}, {"peak", peak}, {"end", end}}});
  }
  groups.push_back({.name = "at rest",
                    .unit = "",
                    .values = {{"threads start", static_cast<double>(f.threads_start)},
                               {"threads end", static_cast<double>(f.threads_end)},
                               {"connections start", number(f.connections_start)},
                               {"connections end", number(f.connections_end)}}});
  // The windows' p99 and counts are the load's own groups ("edge latency", "edge answers").
  // To a hundredth: a fit's last digits are noise ("-1.7e-13" is a flat line).
  const auto per_minute = [](const std::optional<Slope>& slope, double scale = 1.0) {
    if (!slope) return std::optional<double>();
    return std::optional(std::round(slope->per_minute() * scale * 100.0) / 100.0 + 0.0);
  };
  groups.push_back({.name = "drift",
                    .unit = "/min",
                    .values = {{"FDs", per_minute(f.fds)},
                               {"connections", per_minute(f.connections)},
                               {"RSS MiB", per_minute(f.rss_kib, 1.0 / 1024.0)}}});
  return groups;
}

}  // namespace loiter::suites::plots
