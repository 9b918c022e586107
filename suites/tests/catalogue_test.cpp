// The catalogue as a ctest gate: one test per scenario against the target named by
// LOITER_TARGET (registered per target by loiter_add_target()). The test passes when the
// server keeps the scenario's promises; a scenario the target cannot take is skipped with
// the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "loiter/suites/runner/target_choice.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

// The server keeps every promise the scenario checks: in its deadline window, with the
// declared ending, and every FD back.
TEST_P(ScenarioTest, ServerKeepsItsPromises) {
  const auto target = resolve_target(target_from_environment());
  const auto result = run_scenario(*find_scenario(GetParam()), target, timing());
  if (result.skipped) GTEST_SKIP() << *result.skipped;
  RecordProperty("target", target.name);
  RecordProperty("fds_baseline", static_cast<int>(result.observation.fds.baseline));
  RecordProperty("fds_peak", static_cast<int>(result.observation.fds.peak));
  EXPECT_TRUE(result.verdict.passed) << testing::findings_of(result);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::ranges::replace(name, '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Catalogue, ScenarioTest, ::testing::ValuesIn(catalogue_ids()), test_name);

// CMake registers one ctest test per scenario from cmake/LoiterCatalogue.cmake; that list
// must name exactly the catalogue's scenarios, with their families.
TEST(Catalogue, CMakeListMatchesTheCatalogue) {
  std::vector<std::string> from_code;
  for (const auto& scenario : catalogue()) {
    from_code.push_back(fmt::format("{}:{}", scenario.id, scenario.family));
  }
  std::vector<std::string> from_cmake;
  std::string list = LOITER_CATALOGUE_LIST;
  for (std::size_t at = 0; at <= list.size();) {
    const auto end = std::min(list.find(',', at), list.size());
    if (end > at) from_cmake.push_back(list.substr(at, end - at));
    at = end + 1;
  }
  EXPECT_EQ(from_cmake, from_code);
}

// What a command line asks for: ids in their order, or the catalogue (less the load family
// for the matrix); an unknown id and a count a scenario cannot take are usage errors.
TEST(ChooseScenarios, TakesIdsInOrderOrTheCatalogueAndRefusesWhatCannotRun) {
  const auto ids_of = [](const std::vector<const Scenario*>& chosen) {
    std::vector<std::string> ids;
    for (const auto* scenario : chosen) ids.emplace_back(scenario->id);
    return ids;
  };
  EXPECT_EQ(ids_of(choose_scenarios({"rst-abort", "silent"}, 0)),
            (std::vector<std::string>{"rst-abort", "silent"}));
  EXPECT_EQ(ids_of(choose_scenarios({}, 0)), catalogue_ids());
  const auto without_load = ids_of(choose_scenarios({}, 0, /*without_load=*/true));
  EXPECT_EQ(without_load.size() + 1, catalogue_ids().size());
  EXPECT_THAT(without_load, ::testing::Not(::testing::Contains("idle-under-load")));
  EXPECT_THROW(choose_scenarios({"silent", "nope"}, 0), std::invalid_argument);
  EXPECT_THROW(choose_scenarios({"silent"}, 50000), std::invalid_argument);
  EXPECT_EQ(choose_scenarios({"held-capacity"}, 50000).size(), 1u);
}

}  // namespace
}  // namespace loiter::suites
