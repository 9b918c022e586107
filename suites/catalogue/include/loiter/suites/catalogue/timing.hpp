// Every real-time constant of the suite, in one place, scaled by one factor:
// LOITER_TIME_SCALE (default 1) widens every window and wait at once on a slow machine.
// The server's own deadlines are what the target declares and are never scaled; its
// readiness timeout (a wait of loiter's, declared by the target) is.
#pragma once

#include <chrono>

#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

// LOITER_TIME_SCALE (clients::time_scale); throws std::invalid_argument unless it is a
// number in (0, 100].
double time_scale();

struct Timing {
  double scale = 1.0;
  Duration slack;           // allowed distance from a deadline, on both sides
  Duration recovery;        // how long FDs may take to return to baseline
  Duration recovery_stay;   // how long they must then stay there
  Duration late_look;       // after a failed recovery, how much longer to watch for FDs
                            // coming back late (fds-back-late) before calling them held
  Duration settle_window;   // FDs unchanged this long = a settled baseline
  Duration settle_timeout;  // give up settling after this long
  Duration connect;         // a client's connect deadline
  Duration stop_grace;      // SIGTERM to SIGKILL

  // How long a client waits for the server to end its connection: twice the deadline, and
  // at least two slacks past it, so a late close is seen as late, not as open.
  Duration patience_for(Duration deadline) const;
};

Timing timing(double scale = time_scale());

}  // namespace loiter::suites
