// The scenarios of a plan, one after another, into the run directory and the run document.
#include "loiter/suites/document/run_plan.hpp"

#include "loiter/suites/document/report.hpp"
#include "loiter/suites/runner/interrupt.hpp"

namespace loiter::suites {

reports::ScenarioReport run_scenario(const Scenario& scenario, const RunPlan& plan,
                                     RunDirectory& directory) {
  std::string error;
  const auto result =
      directory.run(scenario, plan.target, plan.timing, plan.parameters, error, plan.running);
  return result ? to_report(*result) : error_report(std::string(scenario.id), error);
}

void run_plan(const RunPlan& plan, RunDirectory& directory, reports::RunReport& report,
              const RunProgress& progress) {
  for (const auto* scenario : plan.scenarios) {
    if (interrupted()) break;
    if (progress.starting) progress.starting(*scenario);
    report.scenarios.push_back(run_scenario(*scenario, plan, directory));
    if (progress.done) progress.done(report.scenarios.back());
  }
}

}  // namespace loiter::suites
