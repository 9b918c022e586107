// Turns scenario results into the plain run document reporters read: figures, and the plots'
// plain series derived from the observations. Summarises; never measures, never formats.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::suites {

// The status, findings and key figures of one scenario.
reports::ScenarioReport to_report(const ScenarioResult& result);

// Time zero of a scenario's plots and raw records: its first sample or first connect,
// whichever came first.
clients::Clock::time_point observation_origin(const Observation& observation);

// A scenario the harness could not run (server did not start, a limit was hit): one
// harness-error finding with the error's words.
reports::ScenarioReport error_report(std::string id, std::string error);

// The current UTC time as strftime `format` puts it (at most 31 characters); by default
// ISO 8601, "2024-05-01T12:00:00Z".
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ");

}  // namespace loiter::suites
