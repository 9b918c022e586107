// Durations as plain numbers, for findings, figures, plots and JSON: seconds and
// milliseconds as doubles. One definition for every reader of an Observation.
#pragma once

#include <chrono>

namespace loiter::suites {

// Every duration of the suites: observations, expectations, timing.
using Duration = std::chrono::nanoseconds;

template <typename Rep, typename Period>
double in_seconds(std::chrono::duration<Rep, Period> d) {
  return std::chrono::duration<double>(d).count();
}

template <typename Rep, typename Period>
double in_ms(std::chrono::duration<Rep, Period> d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace loiter::suites
