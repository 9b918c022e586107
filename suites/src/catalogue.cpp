// The scenario catalogue (DESIGN.md, "Scenario catalogue"), in a stable order.
#include <fmt/format.h>

#include "loiter/suites/scenario.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

const std::vector<Scenario>& catalogue() {
  static const std::vector<Scenario> scenarios = [] {
    std::vector<Scenario> all;
    for (auto family : {header_scenarios, body_scenarios, keepalive_scenarios, abort_scenarios,
                        not_cut_scenarios, load_scenarios, capacity_scenarios}) {
      for (auto& scenario : family()) all.push_back(std::move(scenario));
    }
    return all;
  }();
  return scenarios;
}

std::vector<std::string> catalogue_ids() {
  std::vector<std::string> ids;
  for (const auto& scenario : catalogue()) ids.emplace_back(scenario.id);
  return ids;
}

const Scenario* find_scenario(std::string_view id) {
  for (const auto& scenario : catalogue()) {
    if (scenario.id == id) return &scenario;
  }
  return nullptr;
}

std::optional<std::string> count_problem(const Scenario& scenario, std::size_t count) {
  if (count <= scenario.most_count) return std::nullopt;
  if (scenario.most_count >= kSplitCount) {
    return fmt::format("--count {}: {} takes at most {} connections", count, scenario.id,
                       scenario.most_count);
  }
  return fmt::format(
      "--count {}: {} runs in one client process, {} connections at most (only held-capacity "
      "splits larger counts over client processes, up to {})",
      count, scenario.id, scenario.most_count, kSplitCount);
}

}  // namespace loiter::suites
