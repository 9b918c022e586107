// A run plan in, a run document out: the scenarios of a plan, one after another against one
// target, each into the run directory and into the document as its entry (an error entry
// when the harness could not run it). Stops before the next scenario once the user
// interrupted (Ctrl-C). What check and matrix run; the caller prints progress.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/runner/running_server.hpp"

namespace loiter::suites {

struct RunPlan {
  fixtures::Target target;
  std::vector<const Scenario*> scenarios;  // in the order they run
  Timing timing;
  ScenarioParameters parameters;
  // A server loiter did not start (check --connect); nullopt: a fresh server per scenario.
  std::optional<RunningServer> running;
};

// Told as each scenario starts and once its entry is made.
struct RunProgress {
  std::function<void(const Scenario&)> starting;
  std::function<void(const reports::ScenarioReport&)> done;
};

// One scenario of `plan` into `directory`: its entry.
reports::ScenarioReport run_scenario(const Scenario& scenario, const RunPlan& plan,
                                     RunDirectory& directory);

// Every scenario of `plan` into `directory`, their entries appended to `report` (whose head
// the caller made: run_head).
void run_plan(const RunPlan& plan, RunDirectory& directory, reports::RunReport& report,
              const RunProgress& progress = {});

}  // namespace loiter::suites
