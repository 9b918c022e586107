// The server's side of a sharded run, from the observer's wall-clock samples.
#include "loiter/suites/document/server_side.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

namespace {

using Wall = WallClock::time_point;

bool same_rest(const fixtures::ProcessSample& a, const fixtures::ProcessSample& b) {
  return a.fds == b.fds && a.processes == b.processes && a.threads == b.threads;
}

// The last sample before the first shard's clients began (`rest_until`), settled when every
// sample of the settle window before it agrees with it (and the window holds more than one).
void take_baseline(const ServerWatch& watch, Wall rest_until, const Timing& timing,
                   ServerSide& side) {
  const auto& samples = watch.samples;
  const auto first_after =
      std::ranges::find_if(samples, [&](const auto& s) { return s.at >= rest_until; });
  if (first_after == samples.begin()) {
    side.problems.push_back(fmt::format(
        "the observer's first sample ({}) is not before the first shard's clients began ({}): "
        "no baseline of the server at rest",
        samples.empty() ? std::string("none") : rfc3339_ms(samples.front().at),
        rfc3339_ms(rest_until)));
    return;
  }
  const auto& last = *(first_after - 1);
  side.baseline = last.sample;
  side.fds.baseline = last.sample.fds;
  std::size_t agreeing = 0;
  bool settled = true;
  for (auto it = samples.begin(); it != first_after; ++it) {
    if (it->at < rest_until - timing.settle_window) continue;
    settled = settled && same_rest(it->sample, last.sample);
    ++agreeing;
  }
  side.fds.baseline_settled = settled && agreeing > 1;
}

// From the clients' end: the first sample from which FDs stay within the bound for the
// stay, within the recovery window; the timeline ends there (or at the window's end).
Wall take_recovery(const ServerWatch& watch, Wall ended, const Expectations& expected,
                   const Timing& timing, ServerSide& side) {
  const auto bound = side.fds.baseline + expected.fds_after;
  const auto& samples = watch.samples;
  const Wall window_end = ended + expected.recovery;
  std::optional<Wall> since;
  for (const auto& s : samples) {
    if (s.at < ended) continue;
    if (s.at > window_end + timing.recovery_stay) break;
    if (s.at <= window_end) side.fds.after = s.sample.fds;
    if (s.sample.fds > bound || s.sample.processes == 0) {
      since.reset();
      continue;
    }
    if (!since) {
      if (s.at > window_end) break;
      since = s.at;
    }
    if (s.at - *since >= timing.recovery_stay) {
      side.fds.recovered = true;
      side.fds.recovered_after = std::chrono::duration_cast<Duration>(*since - ended);
      side.fds.after = s.sample.fds;
      return s.at;
    }
  }
  const bool covered = !samples.empty() && samples.back().at >= window_end;
  if (!covered && watch.ended_by != WatchEnding::server_exited) {
    side.problems.push_back(fmt::format(
        "the observer stopped at {} ({}), before the recovery window closed at {}: the "
        "server's FDs were not watched to the end",
        samples.empty() ? std::string("-") : rfc3339_ms(samples.back().at),
        to_string(watch.ended_by), rfc3339_ms(window_end)));
  }
  return window_end;
}

}  // namespace

ServerSide server_side(const ServerWatch& watch, const ShardMoments& moments,
                       clients::Clock::time_point origin, const Expectations& expected,
                       const Timing& timing) {
  ServerSide side;
  const auto start_at = moments.start_at;
  take_baseline(watch, std::min(moments.clients_from, start_at), timing, side);
  if (!side.baseline) return side;
  const Wall until = take_recovery(watch, moments.clients_ended, expected, timing, side);
  const Wall from = std::min(moments.clients_from, start_at) - timing.settle_window;
  for (const auto& s : watch.samples) {
    if (s.at < from || s.at > until) continue;
    side.timeline.push_back(
        {.at = origin + std::chrono::duration_cast<clients::Duration>(s.at - start_at),
         .sample = s.sample});
    side.fds.peak = std::max(side.fds.peak, s.sample.fds);
    for (const auto& p : s.sample.per_process) {
      side.fds.peak_in_one_process = std::max(side.fds.peak_in_one_process, p.fds);
    }
    if (s.sample.processes == 0 && !side.server_exit) {
      side.server_exit = fmt::format("the server (pid {}) was gone at {:.3f} s into the run",
                                     watch.pid, in_seconds(s.at - start_at));
    }
  }
  if (!side.server_exit && watch.ended_by == WatchEnding::server_exited && watch.ended <= until) {
    side.server_exit = fmt::format("the server (pid {}) exited at {:.3f} s into the run",
                                   watch.pid, in_seconds(watch.ended - start_at));
  }
  return side;
}

}  // namespace loiter::suites
