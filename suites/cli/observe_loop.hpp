// The watch itself: a sample every period into the watch directory, sleeping in ppoll() on
// the server's pidfd between samples, so the server's exit and the user's Ctrl-C wake it at
// once and nothing spins.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/suites/document/server_watch.hpp"

namespace loiter::cli {

struct WatchEnd {
  std::string ended_by;  // "duration", "interrupt", "server-exited"
  std::size_t samples = 0;
  std::size_t first_fds = 0, peak_fds = 0, last_fds = 0;
};

// Samples `probe` at once and then every `period` (on the start's schedule: a late sample
// does not shift the rest) into `writer`, until `duration` has passed (the last sample is
// before it), the user interrupts (suites::interrupted), or `server` exits (one more
// sample then, showing it gone). Throws std::runtime_error when a line cannot be written.
WatchEnd watch_server(const fixtures::Probe& probe, pid_t server, suites::ServerWatchWriter& writer,
                      std::chrono::milliseconds duration, std::chrono::milliseconds period);

}  // namespace loiter::cli
