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

// A TLS target's declaration as the run document carries it; nullopt for a cleartext one.
std::optional<reports::TargetTls> target_tls(const fixtures::Target& target);

// The protocol loiter speaks to the target, as the run document says it: "http/1.1", "h2c"
// ([h2] without [tls]) or "h2" ([h2] with [tls]).
std::string target_protocol(const fixtures::Target& target);

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
