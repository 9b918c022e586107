// The ladder's JUnit XML, parsed back with Boost.PropertyTree's XML reader: a ladder alone
// never fails (a client-limited step is skipped); a comparison's worse figure is a failure
// with its figures, and no difference (or better, or within the tolerance) is not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>

#include "loiter/reports/ladder_render.hpp"
#include "sample_ladder.hpp"

namespace loiter::reports {
namespace {

using boost::property_tree::ptree;
using ::testing::HasSubstr;

ptree ladder_junit_tree(const Ladder& ladder) {
  std::ostringstream xml;
  render_junit(ladder, xml);
  std::istringstream in(xml.str());
  ptree tree;
  boost::property_tree::read_xml(in, tree);
  return tree;
}

std::vector<const ptree*> children(const ptree& parent, const std::string& tag) {
  std::vector<const ptree*> out;
  for (const auto& [name, child] : parent) {
    if (name == tag) out.push_back(&child);
  }
  return out;
}

const ptree& named(const ptree& suite, const std::string& name) {
  for (const auto* testcase : children(suite, "testcase")) {
    if (testcase->get<std::string>("<xmlattr>.name") == name) return *testcase;
  }
  throw std::runtime_error("no testcase " + name);
}

// A testsuite for the side, a testcase per step; none fails, the client-limited one is
// skipped with the client's words, every step's figures in its system-out.
TEST(LadderJunit, ALadderAloneNeverFailsAndSkipsAClientLimitedStep) {
  const auto tree = ladder_junit_tree(testing::sample_ladder());
  const auto suites = children(tree.get_child("testsuites"), "testsuite");
  ASSERT_EQ(suites.size(), 1U);
  const auto& suite = *suites[0];
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.name"), "nginx (target)");
  EXPECT_EQ(suite.get<int>("<xmlattr>.tests"), 4);
  EXPECT_EQ(suite.get<int>("<xmlattr>.failures"), 0);
  EXPECT_EQ(suite.get<int>("<xmlattr>.skipped"), 1);
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.timestamp"), "2026-12-03T11:00:00Z");
  EXPECT_EQ(children(suite, "testcase").size(), 4U);
  const auto& limited = named(suite, "rate 50,000/s");
  EXPECT_EQ(limited.get<std::string>("skipped.<xmlattr>.message"),
            "loiter's client ran out: dispatched 41,200/s of 50,000/s with its load thread busy "
            "97% of a core");
  EXPECT_THAT(limited.get<std::string>("system-out"), HasSubstr("dispatched 41,200/s"));
  const auto& within = named(suite, "rate 5,000/s");
  EXPECT_FALSE(within.get_child_optional("skipped"));
  EXPECT_FALSE(within.get_child_optional("failure"));
  EXPECT_THAT(within.get<std::string>("system-out"),
              HasSubstr("requested 5,000/s, dispatched 5,000/s, 2xx 5,000/s"));
  EXPECT_THAT(within.get<std::string>("system-out"), HasSubstr(": within"));
  EXPECT_EQ(within.get<std::string>("<xmlattr>.classname"), "loiter.ladder.nginx");
  EXPECT_NO_THROW(named(suite, "saturation 64 connections"));
  std::map<std::string, std::string> properties;
  for (const auto& [tag, p] : suite.get_child("properties")) {
    properties[p.get<std::string>("<xmlattr>.name")] = p.get<std::string>("<xmlattr>.value");
  }
  EXPECT_THAT(properties["knee"], HasSubstr("knee: 20,000/s"));
  EXPECT_EQ(properties["problem"], "trial 7: the server took 2.1 s to start");
  EXPECT_EQ(properties["server-sha256"], testing::sample_ladder().sides[0].server_sha256);
}

// The comparison's testsuite comes first: a failure where the candidate is worse, with the
// figures in its message and each pair in its body; no difference is no failure.
TEST(LadderJunit, AWorseFigureIsAFailureAndNoDifferenceIsNot) {
  const auto tree = ladder_junit_tree(testing::sample_comparison());
  const auto suites = children(tree.get_child("testsuites"), "testsuite");
  ASSERT_EQ(suites.size(), 3U);
  const auto& comparison = *suites[0];
  EXPECT_EQ(comparison.get<int>("<xmlattr>.tests"), 4);
  EXPECT_EQ(comparison.get<int>("<xmlattr>.failures"), 1);
  const auto& worse = named(comparison, "p99 at 5000/s").get_child("failure");
  EXPECT_EQ(worse.get<std::string>("<xmlattr>.type"), "worse");
  EXPECT_EQ(worse.get<std::string>("<xmlattr>.message"),
            "p99 at 5000/s: baseline 1.5 ms, candidate 1.81 ms (+21.0%); median change over the "
            "pairs +21.0% [+15.2%, +30.0%] at 93.8%: worse (tolerance 5%)");
  EXPECT_THAT(worse.data(), HasSubstr("pairs: +21.0%, +18.3%, +25.5%, +30.0%, +15.2%"));
  EXPECT_THAT(worse.data(), HasSubstr("baseline: 1.5, 1.4, 1.6, 1.5, 1.55 ms"));
  for (const auto* name :
       {"server CPU/request at 5000/s", "requests/s at 64 connections", "p99 at 64 connections"}) {
    EXPECT_FALSE(named(comparison, name).get_child_optional("failure")) << name;
  }
  EXPECT_THAT(named(comparison, "server CPU/request at 5000/s").get<std::string>("system-out"),
              HasSubstr("no-difference"));
  EXPECT_EQ(suites[1]->get<std::string>("<xmlattr>.name"), "nginx-1.24 (baseline)");
  EXPECT_EQ(suites[2]->get<int>("<xmlattr>.failures"), 0);
  // With the worse figure of no difference instead, nothing fails.
  auto fine = testing::sample_comparison();
  fine.comparison[0].verdict = PairedVerdict::no_difference;
  const auto again = ladder_junit_tree(fine);
  EXPECT_EQ(children(again.get_child("testsuites"), "testsuite")[0]->get<int>("<xmlattr>.failures"),
            0);
}

// Markup in a target's name or a note survives a parse.
TEST(LadderJunit, EscapingSurvivesAParse) {
  auto ladder = testing::sample_ladder();
  ladder.sides[0].target = "<nginx & \"co\">";
  ladder.sides[0].steps[2].note = "ran <out>\nof 'time'";
  const auto tree = ladder_junit_tree(ladder);
  const auto& suite = tree.get_child("testsuites.testsuite");
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.name"), "<nginx & \"co\"> (target)");
  EXPECT_EQ(named(suite, "rate 50,000/s").get<std::string>("skipped.<xmlattr>.message"),
            "loiter's client ran out: ran <out>\nof 'time'");
}

}  // namespace
}  // namespace loiter::reports
