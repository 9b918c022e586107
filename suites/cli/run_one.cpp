// One scenario into the run directory, as its run-document entry.
#include "run_one.hpp"

#include "loiter/suites/document/report.hpp"

namespace loiter::cli {

reports::ScenarioReport run_one(const suites::Scenario& scenario, const fixtures::Target& target,
                                const suites::Timing& timing,
                                const suites::ScenarioParameters& parameters,
                                suites::RunDirectory& directory) {
  std::string error;
  const auto result = directory.run(scenario, target, timing, parameters, error);
  return result ? suites::to_report(*result)
                : suites::error_report(std::string(scenario.id), error);
}

}  // namespace loiter::cli
