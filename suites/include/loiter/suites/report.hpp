// Turns scenario results into the plain run document reporters read: figures, and the plots'
// plain series derived from the observations. Summarises; never measures, never formats.
#pragma once

#include <string>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/run.hpp"

namespace loiter::suites {

// The status, findings and key figures of one scenario.
reports::ScenarioReport to_report(const ScenarioResult& result);

// Time zero of a scenario's plots and raw records: its first sample or first connect,
// whichever came first.
clients::Clock::time_point observation_origin(const Observation& observation);

// A scenario the harness could not run (server did not start, a limit was hit).
reports::ScenarioReport error_report(std::string id, std::string error);

// The current UTC time, ISO 8601.
std::string utc_now();

}  // namespace loiter::suites
