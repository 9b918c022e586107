// The denial ladder's JUnit XML, parsed back with Boost.PropertyTree's XML reader: a side's
// kinds never fail (the knee is in their system-out); a comparison's kind fails where the
// candidate's knee is lower, and only there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>

#include "loiter/reports/denial_render.hpp"
#include "sample_denial.hpp"

namespace loiter::reports {
// Named, not anonymous: the unity batch shares one anonymous namespace among the test files.
namespace denial_junit_test {

using boost::property_tree::ptree;
using ::testing::HasSubstr;

ptree denial_junit_tree(const Denial& denial) {
  std::ostringstream xml;
  render_junit(denial, xml);
  std::istringstream in(xml.str());
  ptree tree;
  boost::property_tree::read_xml(in, tree);
  return tree;
}

std::vector<const ptree*> children_named(const ptree& parent, const std::string& tag) {
  std::vector<const ptree*> out;
  for (const auto& [name, child] : parent) {
    if (name == tag) out.push_back(&child);
  }
  return out;
}

const ptree& testcase(const ptree& suite, const std::string& name) {
  for (const auto* c : children_named(suite, "testcase")) {
    if (c->get<std::string>("<xmlattr>.name") == name) return *c;
  }
  throw std::runtime_error("no testcase " + name);
}

std::vector<std::string> properties(const ptree& suite, const std::string& name) {
  std::vector<std::string> values;
  for (const auto& [tag, p] : suite.get_child("properties")) {
    if (p.get<std::string>("<xmlattr>.name") == name) {
      values.push_back(p.get<std::string>("<xmlattr>.value"));
    }
  }
  return values;
}

// A testsuite for the side, a testcase per kind, none failing; the knee and every step's
// figures in its system-out.
TEST(DenialJunit, ASideAloneNeverFails) {
  const auto tree = denial_junit_tree(testing::sample_denial());
  const auto suites = children_named(tree.get_child("testsuites"), "testsuite");
  ASSERT_EQ(suites.size(), 1U);
  const auto& suite = *suites[0];
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.name"), "nginx (target)");
  EXPECT_EQ(suite.get<int>("<xmlattr>.tests"), 2);
  EXPECT_EQ(suite.get<int>("<xmlattr>.failures"), 0);
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.timestamp"), "2026-12-04T09:00:00Z");
  const auto& silent = testcase(suite, "silent");
  EXPECT_FALSE(silent.get_child_optional("failure"));
  EXPECT_EQ(silent.get<std::string>("<xmlattr>.classname"), "loiter.denial.nginx");
  const auto out = silent.get<std::string>("system-out");
  EXPECT_THAT(out, ::testing::StartsWith(
                       "denied at 500 silent (accept-queue: accept queue 128/128)\n100 held"));
  EXPECT_THAT(out, HasSubstr("500 held (500/495 open): reopens 10/s, 1,000 B/s; 2xx 41.0%, "
                             "p99 812 ms, errors 5,900; FDs 514/16,384, accept queue 128/128, "
                             "server busy 6%: denied: 2xx 41.0% < 99%"));
  EXPECT_THAT(testcase(suite, "header-trickle").get<std::string>("system-out"),
              ::testing::StartsWith("not denied up to 10,000 header-trickle\n"));
  EXPECT_THAT(properties(suite, "knee"),
              ::testing::ElementsAre("denied at 500 silent (accept-queue: accept queue 128/128)",
                                     "not denied up to 10,000 header-trickle"));
  EXPECT_THAT(properties(suite, "control"),
              ::testing::ElementsAre(::testing::StartsWith(
                  "control, the regular traffic alone: 2xx 100.0%, p99 1.1 ms")));
  EXPECT_THAT(properties(suite, "problem"),
              ::testing::ElementsAre("step 3: the server took 2.1 s to start"));
  EXPECT_THAT(properties(suite, "settings"),
              ::testing::ElementsAre(HasSubstr("regular traffic 2,000/s for 5 s a step")));
  EXPECT_THAT(properties(suite, "server-sha256"),
              ::testing::ElementsAre(testing::sample_denial().sides[0].server_sha256));
}

// The comparison's testsuite comes first: the kind whose knee is lower on the candidate
// fails, saying both knees; same and not-comparable pass.
TEST(DenialJunit, AComparisonFailsWhereTheCandidatesKneeIsLower) {
  const auto tree = denial_junit_tree(testing::sample_denial_comparison());
  const auto suites = children_named(tree.get_child("testsuites"), "testsuite");
  ASSERT_EQ(suites.size(), 3U);
  const auto& comparison = *suites[0];
  EXPECT_EQ(comparison.get<std::string>("<xmlattr>.name"),
            "comparison: nginx-1.24 (baseline) against nginx-1.26 (candidate)");
  EXPECT_EQ(comparison.get<int>("<xmlattr>.tests"), 3);
  EXPECT_EQ(comparison.get<int>("<xmlattr>.failures"), 1);
  const auto& silent = testcase(comparison, "silent");
  EXPECT_EQ(silent.get<std::string>("<xmlattr>.classname"), "loiter.denial.comparison");
  EXPECT_EQ(silent.get<std::string>("failure.<xmlattr>.message"),
            "silent: knee 500 on the baseline, 250 on the candidate: lower");
  EXPECT_EQ(silent.get<std::string>("failure.<xmlattr>.type"), "lower");
  const auto& same = testcase(comparison, "slow-reader");
  EXPECT_FALSE(same.get_child_optional("failure"));
  EXPECT_EQ(same.get<std::string>("system-out"),
            "slow-reader: knee > 1,000 on the baseline, > 1,000 on the candidate: same");
  EXPECT_FALSE(testcase(comparison, "idle-keepalive").get_child_optional("failure"));
  EXPECT_THAT(properties(comparison, "interrupted"), ::testing::ElementsAre("partial"));
  EXPECT_EQ(suites[1]->get<std::string>("<xmlattr>.name"), "nginx-1.24 (baseline)");
  EXPECT_EQ(suites[2]->get<std::string>("<xmlattr>.name"), "nginx-1.26 (candidate)");
  EXPECT_EQ(suites[2]->get<int>("<xmlattr>.failures"), 0);
  // Higher is no failure either.
  auto higher = testing::sample_denial_comparison();
  higher.comparison[0].change = KneeChange::higher;
  const auto tree2 = denial_junit_tree(higher);
  EXPECT_EQ(
      children_named(tree2.get_child("testsuites"), "testsuite")[0]->get<int>("<xmlattr>.failures"),
      0);
}

TEST(DenialJunit, EscapesEveryText) {
  auto denial = testing::sample_denial();
  denial.sides[0].target = "<nginx & \"co\">";
  denial.sides[0].kinds[0].steps[2].why = "2xx <41%>";
  std::ostringstream xml;
  render_junit(denial, xml);
  EXPECT_THAT(xml.str(), HasSubstr("&lt;nginx &amp; &quot;co&quot;&gt;"));
  EXPECT_THAT(xml.str(), HasSubstr("2xx &lt;41%&gt;"));
  EXPECT_THAT(xml.str(), ::testing::Not(HasSubstr("<nginx")));
  EXPECT_NO_THROW(denial_junit_tree(denial));
}

}  // namespace denial_junit_test
}  // namespace loiter::reports
