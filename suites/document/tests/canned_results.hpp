// Canned scenario results of each kind the run document distinguishes, for tests of what
// to_report() writes: a plain closure scenario, a load scenario, a load with connection
// churn and edge windows, and a fleet split over client processes that must not be cut.
#pragma once

#include "loiter/suites/runner/run.hpp"

namespace loiter::suites::testing {

// silent: four connections (close, 408+close, reset, still open), FDs not back, TCP sampled.
ScenarioResult plain_result();
// idle-under-load: two kinds closed in time beside regular traffic, FDs back.
ScenarioResult load_result();
// soak: regular traffic with churn (4 aborted of 100 dispatched, 90 answered 2xx, 3 fresh,
// 2 server-closed, 5 replaced) and edge windows (10 answers in 2 ms / 5 ms).
ScenarioResult churn_load_result();
// held-capacity over three client processes: one connection answered twice, one reset.
ScenarioResult split_fleet_result();

}  // namespace loiter::suites::testing
