// One scenario run into the run directory and reported: its run-document entry, or an error
// entry when the harness could not run it. Shared by check and matrix.
#pragma once

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/document/run_directory.hpp"

namespace loiter::cli {

reports::ScenarioReport run_one(const suites::Scenario& scenario, const fixtures::Target& target,
                                const suites::Timing& timing,
                                const suites::ScenarioParameters& parameters,
                                suites::RunDirectory& directory);

}  // namespace loiter::cli
