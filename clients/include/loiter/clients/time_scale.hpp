// LOITER_TIME_SCALE (default 1): the one factor that widens every real-time window and wait
// of loiter at once on a slow or busy machine — the suites' timing, and the clients' and
// fixtures' tests. Parsed here, in the library everything else builds on.
#pragma once

namespace loiter::clients {

// Throws std::invalid_argument unless LOITER_TIME_SCALE is unset, empty, or a number in
// (0, 100].
double time_scale();

}  // namespace loiter::clients
