#include "loiter/suites/judge/soak_figures.hpp"

#include <algorithm>
#include <cmath>

namespace loiter::suites {

namespace {

using fixtures::FdType;
using fixtures::TcpState;

double seconds_between(clients::Clock::time_point from, clients::Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

const fixtures::TimedSample* peak_fds_sample(const std::vector<fixtures::TimedSample>& timeline) {
  const fixtures::TimedSample* peak = nullptr;
  for (const auto& s : timeline) {
    if (peak == nullptr || s.sample.fds > peak->sample.fds) peak = &s;
  }
  return peak;
}

}  // namespace

std::size_t server_connections(const fixtures::TcpCounts& counts) {
  return counts.server.total() - counts.server.of(TcpState::listen) -
         counts.server.of(TcpState::time_wait);
}

std::optional<Slope> fit_slope(
    const std::vector<fixtures::TimedSample>& timeline, clients::Clock::time_point from,
    clients::Clock::time_point to,
    const std::function<std::optional<double>(const fixtures::ProcessSample&)>& value) {
  double n = 0, sum_x = 0, sum_y = 0, sum_xx = 0, sum_xy = 0, sum_yy = 0;
  for (const auto& s : timeline) {
    if (s.at < from || s.at > to) continue;
    const auto y = value(s.sample);
    if (!y) continue;
    const double x = seconds_between(from, s.at);
    n += 1;
    sum_x += x;
    sum_y += *y;
    sum_xx += x * x;
    sum_xy += x * *y;
    sum_yy += *y * *y;
  }
  if (n < 3) return std::nullopt;
  const double spread = n * sum_xx - sum_x * sum_x;
  if (spread <= 0) return std::nullopt;  // every sample at one instant
  Slope slope;
  slope.per_second = (n * sum_xy - sum_x * sum_y) / spread;
  slope.intercept = (sum_y - slope.per_second * sum_x) / n;
  slope.samples = static_cast<std::size_t>(n);
  // Residuals' sum of squares from the sums; the slope's variance is it / (n-2) / Sxx.
  const double sxx = spread / n;
  const double syy = sum_yy - sum_y * sum_y / n;
  const double sxy = sum_xy - sum_x * sum_y / n;
  const double residual = std::max(0.0, syy - slope.per_second * sxy);
  slope.std_error = n > 2 ? std::sqrt(residual / (n - 2) / sxx) : 0.0;
  slope.from = from;
  slope.to = to;
  return slope;
}

std::optional<SoakFigures> soak_figures(const Observation& o) {
  if (!o.load) return std::nullopt;
  const auto& load = o.load->result;
  SoakFigures f;
  f.traffic_start = load.started;
  // The schedule's end (older results: the seconds it was cut into, one per second).
  f.traffic_end = load.scheduled > Duration{}
                      ? load.started + load.scheduled
                      : load.started + std::chrono::seconds(std::max<std::size_t>(1, load.seconds.size()));
  f.fit_from = f.traffic_start + (f.traffic_end - f.traffic_start) / 2;
  const auto& timeline = o.timeline;
  f.fds = fit_slope(timeline, f.fit_from, f.traffic_end,
                    [](const auto& s) { return static_cast<double>(s.fds); });
  f.rss_kib = fit_slope(timeline, f.fit_from, f.traffic_end,
                        [](const auto& s) { return static_cast<double>(s.rss_kib); });
  f.connections = fit_slope(
      timeline, f.fit_from, f.traffic_end, [](const auto& s) -> std::optional<double> {
        if (!s.tcp) return std::nullopt;
        return static_cast<double>(server_connections(*s.tcp));
      });
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    f.fd_types[t] = fit_slope(timeline, f.fit_from, f.traffic_end,
                              [t](const auto& s) -> std::optional<double> {
                                if (!s.fd_types) return std::nullopt;
                                return static_cast<double>(s.fd_types->by_type[t]);
                              });
  }
  if (o.baseline) {
    f.types_start = o.baseline->fd_types;
    f.threads_start = o.baseline->threads;
    if (o.baseline->tcp) f.connections_start = server_connections(*o.baseline->tcp);
  } else if (!timeline.empty()) {
    f.types_start = timeline.front().sample.fd_types;
    f.threads_start = timeline.front().sample.threads;
    if (timeline.front().sample.tcp) f.connections_start = server_connections(*timeline.front().sample.tcp);
  }
  if (const auto* peak = peak_fds_sample(timeline)) f.types_peak = peak->sample.fd_types;
  if (!timeline.empty()) {
    const auto& last = timeline.back().sample;
    f.types_end = last.fd_types;
    f.threads_end = last.threads;
    if (last.tcp) f.connections_end = server_connections(*last.tcp);
  }
  f.p99_first = load.first_window.percentile(99.0);
  f.p99_last = load.last_window.percentile(99.0);
  f.first_count = load.first_window.count();
  f.last_count = load.last_window.count();
  return f;
}

std::optional<fixtures::FdType> steepest_fd_type(const SoakFigures& figures) {
  std::optional<FdType> steepest;
  double most = 0.0;
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    const auto& slope = figures.fd_types[t];
    if (!slope || slope->per_second <= most) continue;
    most = slope->per_second;
    steepest = static_cast<FdType>(t);
  }
  return steepest;
}

}  // namespace loiter::suites
