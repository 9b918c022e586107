// The sampling loop of `loiter observe`: a sample every period, sleeping in ppoll() on the
// server's pidfd between samples, so the server's exit and the user's Ctrl-C wake it at once
// and nothing spins. Where the samples go (the watch directory) is the caller's.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/suites/runner/watch_ending.hpp"

namespace loiter::suites {

struct WatchEnd {
  WatchEnding ended_by = WatchEnding::none;
  std::size_t samples = 0;
  std::size_t first_fds = 0, peak_fds = 0, last_fds = 0;
};

// Takes each sample with its wall-clock time; throws to end the watch.
using WatchSink =
    std::function<void(std::chrono::system_clock::time_point, const fixtures::ProcessSample&)>;

// Samples `probe` at once and then every `period` (on the start's schedule: a late sample
// does not shift the rest) into `sink`, until `duration` has passed (the last sample is
// before it), the user interrupts (suites::interrupted), or `server` exits (one more
// sample then, showing it gone). Throws std::runtime_error when the wait fails, and
// whatever `sink` throws.
WatchEnd watch_server(const fixtures::Probe& probe, pid_t server, const WatchSink& sink,
                      std::chrono::milliseconds duration, std::chrono::milliseconds period);

}  // namespace loiter::suites
