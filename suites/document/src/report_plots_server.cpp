// Plots of the server's side from the sampled timeline: TCP states of its port, RSS.
#include <fmt/format.h>

#include <algorithm>

#include "loiter/fixtures/probe/tcp_states.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "report_plots.hpp"

namespace loiter::suites::plots {

namespace {

using fixtures::TcpState;
using reports::Plot;
using reports::PlotStyle;
using reports::Series;

constexpr TcpState kStates[] = {TcpState::established, TcpState::syn_recv,   TcpState::fin_wait1,
                                TcpState::fin_wait2,   TcpState::close_wait, TcpState::last_ack,
                                TcpState::closing,     TcpState::time_wait};

// One series per side and state that is ever non-zero.
void add_side(Plot& plot, const Observation& o, clients::Clock::time_point origin,
              std::string_view side, bool server) {
  for (const auto state : kStates) {
    Series series{.name = fmt::format("{} {}", side, fixtures::to_string(state)), .points = {}};
    bool seen = false;
    for (const auto& s : o.timeline) {
      if (!s.sample.tcp) continue;
      const auto& counts = server ? s.sample.tcp->server : s.sample.tcp->client;
      const auto n = counts.of(state);
      seen = seen || n > 0;
      series.points.emplace_back(in_seconds(s.at - origin), static_cast<double>(n));
    }
    if (seen) plot.series.push_back(std::move(series));
  }
}

}  // namespace

std::optional<Plot> tcp_plot(const Observation& o, clients::Clock::time_point origin) {
  const bool any =
      std::ranges::any_of(o.timeline, [](const auto& s) { return s.sample.tcp.has_value(); });
  if (!any) return std::nullopt;
  Plot plot{.id = "tcp",
            .title = "TCP states of the server's port (server and client ends)",
            .x_unit = "s",
            .y_unit = "sockets",
            .style = PlotStyle::step};
  add_side(plot, o, origin, "server", true);
  add_side(plot, o, origin, "client", false);
  Series queue{.name = "accept queue", .points = {}};
  for (const auto& s : o.timeline) {
    if (s.sample.tcp)
      queue.points.emplace_back(in_seconds(s.at - origin),
                                static_cast<double>(s.sample.tcp->accept_queue));
  }
  plot.series.push_back(std::move(queue));
  return plot;
}

Plot rss_plot(const Observation& o, clients::Clock::time_point origin) {
  Plot plot{.id = "rss",
            .title = "server RSS and threads (whole process tree)",
            .x_unit = "s",
            .y_unit = "MiB / threads",
            .style = PlotStyle::step};
  Series rss{.name = "RSS MiB", .points = {}};
  Series threads{.name = "threads", .points = {}};
  for (const auto& s : o.timeline) {
    const double at = in_seconds(s.at - origin);
    rss.points.emplace_back(at, static_cast<double>(s.sample.rss_kib) / 1024.0);
    threads.points.emplace_back(at, static_cast<double>(s.sample.threads));
  }
  plot.series = {std::move(rss), std::move(threads)};
  return plot;
}

reports::FigureGroup rss_figures(const Observation& o) {
  std::optional<double> peak;
  for (const auto& s : o.timeline)
    peak = std::max(peak.value_or(0.0), static_cast<double>(s.sample.rss_kib));
  return {.name = "RSS", .unit = "KiB", .values = {{"peak", peak}}};
}

}  // namespace loiter::suites::plots
