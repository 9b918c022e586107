// The head of a run document (report.json): which loiter ran, against what, from when. One
// builder for every command that writes a run: check, matrix, merge and drive.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/run_report.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {

// A run against `target`: its name, description, TLS and protocol as the document says them;
// `started_at` UTC, ISO 8601. No scenarios yet: they are the caller's to add.
reports::RunReport run_head(std::string loiter_version, const fixtures::Target& target,
                            std::string started_at);

// A run against a server loiter did not start and knows only by its address (drive).
reports::RunReport run_head(std::string loiter_version, std::string address,
                            std::string started_at);

// Of a default run's `scenarios`, those the target's protocol can run (protocol_unmet);
// the others are named in `report.left_out`, by protocol, instead of a skip each.
std::vector<const Scenario*> leave_out_other_protocols(std::vector<const Scenario*> scenarios,
                                                       const fixtures::Target& target,
                                                       reports::RunReport& report);

// A TLS target's declaration as the run document carries it; nullopt for a cleartext one.
std::optional<reports::TargetTls> target_tls(const fixtures::Target& target);

// The protocol loiter speaks to the target, as the run document says it: "http/1.1", "h2c"
// ([h2] without [tls]) or "h2" ([h2] with [tls]).
std::string target_protocol(const fixtures::Target& target);

}  // namespace loiter::suites
