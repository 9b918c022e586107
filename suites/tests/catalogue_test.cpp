// The catalogue as CMake and the command line see it: the list loiter_add_target() registers
// one ctest test per scenario from (each runs `loiter check`), and how a command line
// chooses scenarios.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "loiter/suites/document/run_head.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

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

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  for (std::size_t at = 0; at <= list.size();) {
    const auto end = std::min(list.find(',', at), list.size());
    if (end > at) items.push_back(list.substr(at, end - at));
    at = end + 1;
  }
  return items;
}

// The catalogue's data file (read by CMake, embedded in loiter) names exactly the
// catalogue's scenarios, in its order, with their families; h2 is the protocol of the
// HTTP/2 families (h2, flood), tls of the tls family (over TLS only), http1 or any of the
// others: an http1 scenario is skipped on an [h2] target for speaking HTTP/2, an any one
// drives HTTP/2 there and is not; the floods and the soak run on request.
TEST(CatalogueData, DataFileMatchesTheCatalogue) {
  using ::testing::AnyOf;
  const auto& entries = catalogue_entries();
  ASSERT_EQ(entries.size(), catalogue().size());
  auto h2c = fixtures::bundled_target("reference-h2c");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& scenario = catalogue()[i];
    EXPECT_EQ(entries[i].id, scenario.id);
    EXPECT_EQ(entries[i].family, scenario.family) << scenario.id;
    // HTTP/3 alone (the h3 family, and the h3 floods): every other family is skipped there.
    if (scenario.family == "h3" || scenario.id.starts_with("h3-")) {
      EXPECT_EQ(entries[i].protocol, ScenarioProtocol::h3) << scenario.id;
      continue;
    }
    const bool h2 = scenario.family == "h2" || scenario.family == "flood";
    if (h2 || scenario.family == "tls") {
      EXPECT_EQ(entries[i].protocol, h2 ? ScenarioProtocol::h2 : ScenarioProtocol::tls) << scenario.id;
      continue;
    }
    ASSERT_THAT(entries[i].protocol,
                AnyOf(ScenarioProtocol::http1, ScenarioProtocol::any, ScenarioProtocol::every))
        << scenario.id;
    const auto need = scenario.unmet_need(h2c);
    const bool skipped_for_h2 = need && need->find("speaks HTTP/2") != std::string::npos;
    EXPECT_EQ(skipped_for_h2, entries[i].protocol == ScenarioProtocol::http1) << scenario.id;
  }
  EXPECT_FALSE(runs_by_default("soak"));
  EXPECT_FALSE(runs_by_default("h2-rapid-reset"));
  EXPECT_TRUE(runs_by_default("silent"));
  EXPECT_FALSE(runs_by_default("no-such-scenario"));
}

// CMake's default run by protocol (what loiter_add_target registers without SCENARIOS) is
// loiter check's default run, less the scenarios whose protocol the target does not speak:
// a cleartext target gets no tls nor h2 scenario, a TLS one the tls family too.
TEST(CatalogueData, CMakeDefaultRunIsCheckDefaultRunOfEachProtocol) {
  fixtures::Target cleartext, over_tls, h2c;
  over_tls.tls = fixtures::Tls{};
  h2c.h2 = fixtures::H2{};
  const auto runs_on = [](const fixtures::Target& target) {
    std::vector<std::string> ids;
    for (const auto* scenario : choose_scenarios({}, 0)) {
      if (!protocol_unmet(scenario->id, target)) ids.emplace_back(scenario->id);
    }
    return ids;
  };
  EXPECT_EQ(split(LOITER_DEFAULT_HTTP1_LIST), runs_on(cleartext));
  EXPECT_EQ(split(LOITER_DEFAULT_TLS_LIST), runs_on(over_tls));
  EXPECT_EQ(split(LOITER_DEFAULT_H2_LIST), runs_on(h2c));
  EXPECT_THAT(runs_on(cleartext), ::testing::Not(::testing::Contains("tls-half-hello")));
  EXPECT_THAT(runs_on(over_tls), ::testing::Contains("tls-half-hello"));
  EXPECT_THAT(runs_on(over_tls), ::testing::Contains("silent"));
  EXPECT_THAT(runs_on(h2c), ::testing::Not(::testing::Contains("silent")));
}

// A default run on a cleartext target leaves the TLS and HTTP/2 scenarios out, named once
// by protocol with the reason, instead of a skip each; on an h2c target, the HTTP/1.1 ones.
TEST(CatalogueData, ADefaultRunLeavesOtherProtocolsOutByName) {
  fixtures::Target cleartext, h2c;
  h2c.h2 = fixtures::H2{};
  reports::RunReport report;
  const auto kept = leave_out_other_protocols(choose_scenarios({}, 0), cleartext, report);
  ASSERT_EQ(report.left_out.size(), 3u);
  EXPECT_EQ(report.left_out[0].protocol, "HTTP/1.1 over TLS");
  EXPECT_EQ(report.left_out[0].ids,
            (std::vector<std::string>{"tls-record-header", "tls-half-hello", "tls-hello-trickle",
                                      "tls-handshake-silent"}));
  EXPECT_THAT(report.left_out[0].why, ::testing::HasSubstr("no [tls]"));
  EXPECT_EQ(report.left_out[1].protocol, "HTTP/2");
  EXPECT_EQ(report.left_out[2].protocol, "HTTP/3");
  EXPECT_EQ(kept.size() + 4 + report.left_out[1].ids.size() + report.left_out[2].ids.size(),
            choose_scenarios({}, 0).size());
  reports::RunReport on_h2c;
  const auto h2_kept = leave_out_other_protocols(choose_scenarios({}, 0), h2c, on_h2c);
  ASSERT_EQ(on_h2c.left_out.size(), 3u);
  EXPECT_EQ(on_h2c.left_out[0].protocol, "HTTP/1.1");
  EXPECT_EQ(on_h2c.left_out[2].protocol, "HTTP/3");
  EXPECT_EQ(h2_kept.size(), split(LOITER_DEFAULT_H2_LIST).size());
  // On an [h3] target the h3 family alone: every other one left out, "any" by its own name.
  fixtures::Target h3;
  h3.h3 = fixtures::H3{};
  reports::RunReport on_h3;
  const auto h3_kept = leave_out_other_protocols(choose_scenarios({}, 0), h3, on_h3);
  EXPECT_EQ(h3_kept.size(), split(LOITER_DEFAULT_H3_LIST).size());
  for (const auto& group : on_h3.left_out) {
    EXPECT_THAT(group.why, ::testing::HasSubstr("speaks HTTP/3")) << group.protocol;
  }
  // Each group keeps its families once, in catalogue order: what the console counts by.
  ASSERT_FALSE(on_h3.left_out.empty());
  EXPECT_EQ(on_h3.left_out[0].protocol, "HTTP/1.1");
  EXPECT_THAT(on_h3.left_out[0].families,
              ::testing::ElementsAre("header", "body", "keepalive", "abort", "not-cut", "send"));
}

// Each of loiter's own ctest gates (suites/CMakeLists.txt) registers only scenarios its
// target can run: none its target file rules out, so the test command lists no skip that
// could never run.
TEST(CatalogueData, GatesRegisterNothingTheirTargetRulesOut) {
  const std::string gates = LOITER_GATES;
  std::size_t checked = 0;
  for (std::size_t at = 0; at < gates.size();) {
    const auto end = std::min(gates.find('|', at), gates.size());
    const auto gate = gates.substr(at, end - at);
    at = end + 1;
    const auto colon = gate.find(':');
    ASSERT_NE(colon, std::string::npos) << gate;
    const auto target = resolve_target(gate.substr(0, colon));
    for (const auto& id : split(gate.substr(colon + 1))) {
      const auto* scenario = find_scenario(id);
      ASSERT_NE(scenario, nullptr) << id;
      EXPECT_EQ(scenario->unmet_need(target), std::nullopt) << target.name << "." << id;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50u);
}

// A scenario's protocol need is among its own: where protocol_unmet names one, the
// scenario's unmet_need names the same.
TEST(CatalogueData, AProtocolNeedIsTheScenariosOwn) {
  fixtures::Target cleartext, h2c;
  h2c.h2 = fixtures::H2{};
  for (const auto& scenario : catalogue()) {
    for (const auto* target : {&cleartext, &h2c}) {
      if (const auto need = protocol_unmet(scenario.id, *target)) {
        EXPECT_EQ(scenario.unmet_need(*target), need) << scenario.id;
      }
    }
  }
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
  const auto by_default = ids_of(choose_scenarios({}, 0));
  EXPECT_EQ(by_default.size() + 13, catalogue_ids().size());  // not the 12 floods, nor soak
  EXPECT_THAT(by_default, ::testing::Not(::testing::Contains("h2-rapid-reset")));
  const auto without_load = ids_of(choose_scenarios({}, 0, /*without_load=*/true));
  EXPECT_EQ(without_load.size() + 1, by_default.size());
  EXPECT_THAT(without_load, ::testing::Not(::testing::Contains("idle-under-load")));
  EXPECT_THROW(choose_scenarios({"silent", "nope"}, 0), std::invalid_argument);
  EXPECT_THROW(choose_scenarios({"silent"}, 50000), std::invalid_argument);
  EXPECT_EQ(choose_scenarios({"held-capacity"}, 50000).size(), 1u);
}

// The flood family runs only when asked for, by family or by id; an unknown family is refused.
TEST(ChooseScenarios, RunsTheFloodFamilyOnlyWhenAskedFor) {
  const auto ids_of = [](const std::vector<const Scenario*>& chosen) {
    std::vector<std::string> ids;
    for (const auto* scenario : chosen) ids.emplace_back(scenario->id);
    return ids;
  };
  EXPECT_EQ(ids_of(choose_scenarios({}, 0, false, {"flood"})),
            (std::vector<std::string>{
                "h2-rapid-reset", "h2-continuation-flood", "h2-settings-flood", "h2-ping-flood",
                "h3-rapid-reset", "h3-connection-id", "h3-path-challenge", "h3-qpack-bomb",
                "h3-qpack-blocked", "h3-encoder-stream", "h3-out-of-order", "h3-ping-flood"}));
  EXPECT_EQ(ids_of(choose_scenarios({"h2-ping-flood"}, 0)),
            (std::vector<std::string>{"h2-ping-flood"}));
  EXPECT_EQ(ids_of(choose_scenarios({"h3-qpack-bomb"}, 0)),
            (std::vector<std::string>{"h3-qpack-bomb"}));
  EXPECT_EQ(ids_of(choose_scenarios({"silent"}, 0, false, {"flood"})).size(), 13u);
  EXPECT_THROW(choose_scenarios({}, 0, false, {"nope"}), std::invalid_argument);
}

// The soak (30 minutes by default) runs only when named: not by default, not with its
// family, which still runs idle-under-load.
TEST(ChooseScenarios, RunsTheSoakOnlyWhenNamed) {
  const auto ids_of = [](const std::vector<const Scenario*>& chosen) {
    std::vector<std::string> ids;
    for (const auto* scenario : chosen) ids.emplace_back(scenario->id);
    return ids;
  };
  EXPECT_THAT(ids_of(choose_scenarios({}, 0)), ::testing::Not(::testing::Contains("soak")));
  EXPECT_EQ(ids_of(choose_scenarios({}, 0, false, {"load"})),
            (std::vector<std::string>{"idle-under-load"}));
  EXPECT_EQ(ids_of(choose_scenarios({"soak"}, 0)), (std::vector<std::string>{"soak"}));
}

}  // namespace
}  // namespace loiter::suites
