// The sampling loop of `loiter observe`: a sample every period, sleeping in ppoll() on the
// server's pidfd between samples, so the server's exit and the user's Ctrl-C wake it at once
// and nothing spins. Where the samples go (the watch directory) is the caller's.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/suites/runner/session.hpp"
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

// What a watch is of, once its session has the server: the PID, the port whose TCP states
// are counted, and for a server the session started, where and which target.
struct WatchSubject {
  pid_t pid = 0;
  std::optional<unsigned short> port;
  std::string host;
  std::optional<std::string> target;
};

struct Observed {
  std::optional<WatchEnd> end;         // nullopt: interrupted while the server was starting
  std::optional<SessionStop> stopped;  // a server the session started, stopped at the end
};

// `loiter observe`: the session's server (`plan`: a target started, or a PID with its port)
// watched for `duration` at `period`, into the sink `begin` gives once the server runs (and
// before the first sample). Throws as the server's start and watch_server do.
Observed observe_server(SessionPlan plan, std::chrono::milliseconds duration,
                        std::chrono::milliseconds period,
                        const std::function<WatchSink(const WatchSubject&)>& begin);

}  // namespace loiter::suites
