// Turns scenario results into the plain run document reporters read. Summarises; never
// measures, never formats.
#pragma once

#include <string>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/run.hpp"

namespace loiter::suites {

// The status, findings and key figures of one scenario.
reports::ScenarioReport to_report(const ScenarioResult& result);

// A scenario the harness could not run (server did not start, a limit was hit).
reports::ScenarioReport error_report(std::string id, std::string error);

// The current UTC time, ISO 8601.
std::string utc_now();

}  // namespace loiter::suites
