#include "loiter/suites/judge/load_figures.hpp"

#include <algorithm>

namespace loiter::suites {

namespace {

using clients::Ending;

template <typename Field>
Span span_of(const std::vector<fixtures::TimedSample>& timeline, Field field) {
  Span span;
  if (timeline.empty()) return span;
  span.start = field(timeline.front().sample);
  span.end = field(timeline.back().sample);
  for (const auto& s : timeline) span.peak = std::max(span.peak, field(s.sample));
  return span;
}

std::optional<Duration> last_server_ending(const Observation& o, clients::Clock::time_point from) {
  Duration last{};
  for (const auto& r : o.connections) {
    const bool by_server =
        r.ending == Ending::close || r.ending == Ending::reset || r.ending == Ending::alert;
    if (!by_server) return std::nullopt;
    const auto ended = r.connected() + r.ended_at;
    last = std::max(last, std::chrono::duration_cast<Duration>(ended - from));
  }
  return last;
}

}  // namespace

std::optional<LoadFigures> load_figures(const Observation& o) {
  if (!o.load) return std::nullopt;
  const auto& load = o.load->result;
  LoadFigures figures;
  figures.load_lasted = std::chrono::duration_cast<Duration>(load.ended - load.started);
  figures.all_waiting_closed = last_server_ending(o, load.started);
  for (const auto& s : o.timeline) {
    if (s.at <= load.ended) figures.fds_during = s.sample.fds;
  }
  figures.fds = span_of(o.timeline, [](const auto& s) { return s.fds; });
  figures.rss_kib = span_of(o.timeline, [](const auto& s) { return s.rss_kib; });
  figures.threads = span_of(o.timeline, [](const auto& s) { return s.threads; });
  return figures;
}

}  // namespace loiter::suites
