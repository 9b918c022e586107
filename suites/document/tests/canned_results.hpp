// Canned scenario results of each kind the run document distinguishes, for tests of what
// to_report() writes: a plain closure scenario, a load scenario, and a fleet split over
// client processes that must not be cut.
#pragma once

#include "loiter/suites/runner/run.hpp"

namespace loiter::suites::testing {

// silent: four connections (close, 408+close, reset, still open), FDs not back, TCP sampled.
ScenarioResult plain_result();
// idle-under-load: two kinds closed in time beside regular traffic, FDs back.
ScenarioResult load_result();
// held-capacity over three client processes: one connection answered twice, one reset.
ScenarioResult split_fleet_result();

}  // namespace loiter::suites::testing
