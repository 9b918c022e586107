// The server's side of a sharded run, from what `loiter observe` sampled on the server's
// machine (wall-clock times): the baseline before the shared start, the FDs' peak and their
// recovery after the last shard's clients ended, the timeline on the run's origin, and
// whether the server exited. What the observer did not cover (started after the shared start,
// stopped before the recovery window closed) is a problem: the run cannot be judged whole.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/fixtures/probe/sample.hpp"
#include "loiter/suites/catalogue/timing.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::suites {

struct ServerSide {
  std::optional<fixtures::ProcessSample> baseline;
  FdObservation fds;
  std::vector<fixtures::TimedSample> timeline;  // from the baseline to the recovery's end
  std::optional<std::string> server_exit;
  std::vector<std::string> problems;  // why the server's side is not whole
};

// The shards' moments (wall clock): their shared start, when the first handed its clients
// their timeline (the server is at rest before: the baseline), when the last one's ended.
struct ShardMoments {
  WallClock::time_point start_at, clients_from, clients_ended;
};

// Pure. The timeline's times are put on `origin`, the steady time taken to be start_at.
ServerSide server_side(const ServerWatch& watch, const ShardMoments& moments,
                       clients::Clock::time_point origin, const Expectations& expected,
                       const Timing& timing);

}  // namespace loiter::suites
