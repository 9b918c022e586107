// The figures of a soak, derived from its plain observation (pure functions: the judge and
// the report both read them, neither measures): least-squares slopes of the server's FDs
// (in all and by type), connections and RSS over the second half of the traffic, the
// descriptors by type at the start, peak and end, and the p99 of the first and last windows.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "loiter/fixtures/probe/sample.hpp"
#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites {

// Connections the server holds on the port: its side's sockets but LISTEN and TIME_WAIT
// (a TIME_WAIT socket belongs to the kernel, not to the process).
std::size_t server_connections(const fixtures::TcpCounts& counts);

// value = intercept + per_second * (t - from), fitted over the samples in [from, to].
struct Slope {
  double per_second = 0.0;
  double intercept = 0.0;  // the fitted value at `from`
  // The slope's standard error (per second): how far noise alone moves it. A short or noisy
  // span fits a steep line to a few wobbles; the judge asks the slope less two of these.
  double std_error = 0.0;
  std::size_t samples = 0;
  clients::Clock::time_point from{}, to{};
  double per_minute() const { return per_second * 60.0; }
};

// The least-squares line through value(sample) over the samples taken in [from, to];
// nullopt with fewer than 3 samples there, or where value gives nullopt (a sample without
// TCP counts, say).
std::optional<Slope> fit_slope(
    const std::vector<fixtures::TimedSample>& timeline, clients::Clock::time_point from,
    clients::Clock::time_point to,
    const std::function<std::optional<double>(const fixtures::ProcessSample&)>& value);

struct SoakFigures {
  clients::Clock::time_point traffic_start{}, traffic_end{};  // the schedule: start, start+duration
  clients::Clock::time_point fit_from{};                      // the second half's start
  std::optional<Slope> fds, connections, rss_kib;
  std::array<std::optional<Slope>, fixtures::kFdTypeCount> fd_types;  // by FdType
  // The descriptors by type at rest before (the baseline), at the sample with the most FDs,
  // and at the last sample (after the recovery wait).
  std::optional<fixtures::FdTypes> types_start, types_peak, types_end;
  std::optional<std::size_t> connections_start, connections_end;
  std::size_t threads_start = 0, threads_end = 0;
  Duration p99_first{}, p99_last{};  // from the intended send time, per window
  std::uint64_t first_count = 0, last_count = 0;  // requests in each window
};

// nullopt when the observation has no load.
std::optional<SoakFigures> soak_figures(const Observation& observation);

// The descriptor type whose slope grew most over the second half (the leaking one), if
// any type was counted and one grew.
std::optional<fixtures::FdType> steepest_fd_type(const SoakFigures& figures);

}  // namespace loiter::suites
