// The JUnit renderer: the canned run document (pass, fail, skip, info) plus an error, parsed
// back with Boost.PropertyTree's XML reader: a testsuite per run with its counts and
// properties, a testcase per scenario with what it must carry; escaping that survives a parse.
#include "loiter/reports/junit.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>

#include "sample_report.hpp"

namespace loiter::reports {
namespace {

std::string junit_xml(const std::vector<MatrixRun>& runs) {
  std::ostringstream out;
  render_junit(runs, out);
  return out.str();
}

using boost::property_tree::ptree;
using ::testing::HasSubstr;

ptree parse(const std::string& xml) {
  std::istringstream in(xml);
  ptree tree;
  boost::property_tree::read_xml(in, tree);
  return tree;
}

// The sample with an error scenario added: the harness's note and an infrastructure finding.
MatrixRun sample_run() {
  auto report = testing::sample_report();
  report.scenarios.push_back({.id = "rst-abort",
                              .status = Status::error,
                              .note = "the server did not start: exited 1",
                              .findings = {{.code = codes::kHarnessError,
                                            .scenario = "rst-abort",
                                            .klass = FindingClass::infrastructure,
                                            .error = "the server did not start: exited 1"}}});
  return {report, "runs/20261201T020000Z-reference"};
}

// The <testcase> named `id` in a testsuite.
const ptree& testcase(const ptree& suite, const std::string& id) {
  for (const auto& [tag, child] : suite) {
    if (tag == "testcase" && child.get<std::string>("<xmlattr>.name") == id) return child;
  }
  throw std::runtime_error("no testcase " + id);
}

// One testsuite named for the target, counting every scenario by its outcome.
TEST(Junit, ATestsuitePerRunCountsItsScenarios) {
  const auto tree = parse(junit_xml({sample_run()}));
  const auto& suites = tree.get_child("testsuites");
  ASSERT_EQ(suites.count("testsuite"), 1U);
  const auto& suite = suites.get_child("testsuite");
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.name"), "reference");
  EXPECT_EQ(suite.get<int>("<xmlattr>.tests"), 5);
  EXPECT_EQ(suite.get<int>("<xmlattr>.failures"), 1);
  EXPECT_EQ(suite.get<int>("<xmlattr>.errors"), 1);
  EXPECT_EQ(suite.get<int>("<xmlattr>.skipped"), 1);
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.timestamp"), "2026-12-01T02:00:00Z");
  EXPECT_EQ(suite.count("testcase"), 5U);
}

// The run directory, its report.html, the target and loiter's version are properties.
TEST(Junit, TheRunDirectoryIsAProperty) {
  const auto suite = parse(junit_xml({sample_run()})).get_child("testsuites.testsuite");
  std::map<std::string, std::string> properties;
  for (const auto& [tag, p] : suite.get_child("properties")) {
    properties[p.get<std::string>("<xmlattr>.name")] = p.get<std::string>("<xmlattr>.value");
  }
  EXPECT_EQ(properties["run-directory"], "runs/20261201T020000Z-reference");
  EXPECT_EQ(properties["report-html"], "runs/20261201T020000Z-reference/report.html");
  EXPECT_EQ(properties["target"], "reference");
  EXPECT_EQ(properties["target-version"], "reference 0.1.0");
  EXPECT_EQ(properties["loiter-version"], "0.1.0");
}

// Pass and info carry nothing; skip its reason; fail the first finding's sentence and
// class/code with every finding in the body; error the harness's words.
TEST(Junit, EachTestcaseCarriesItsOutcome) {
  const auto run = sample_run();
  const auto suite = parse(junit_xml({run})).get_child("testsuites.testsuite");
  const auto& pass = testcase(suite, "silent");
  EXPECT_EQ(pass.get<std::string>("<xmlattr>.classname"), "loiter.reference");
  EXPECT_EQ(pass.size(), 1U) << "only its attributes";
  EXPECT_EQ(testcase(suite, "partial-header").size(), 1U);
  EXPECT_EQ(testcase(suite, "stream").get<std::string>("skipped.<xmlattr>.message"),
            "the target declares no stream path");
  const auto& failure = testcase(suite, "silent-again").get_child("failure");
  const auto& finding = run.report.scenarios[1].findings[0];
  EXPECT_EQ(failure.get<std::string>("<xmlattr>.message"), text(finding));
  EXPECT_EQ(failure.get<std::string>("<xmlattr>.type"), "deadline/still-open");
  EXPECT_THAT(failure.data(), HasSubstr("[deadline] still-open: " + text(finding)));
  const auto& error = testcase(suite, "rst-abort").get_child("error");
  EXPECT_EQ(error.get<std::string>("<xmlattr>.message"), "the server did not start: exited 1");
  EXPECT_EQ(error.get<std::string>("<xmlattr>.type"), "infrastructure/harness-error");
}

// A matrix: a testsuite per server, a server not run says why and has no testcase.
TEST(Junit, AMatrixHasATestsuitePerServer) {
  auto missing = sample_run();
  missing.report.target = "nginx";
  missing.report.scenarios.clear();
  missing.report.not_run = "nginx is not installed";
  const auto tree = parse(junit_xml({sample_run(), missing}));
  EXPECT_EQ(tree.get_child("testsuites").count("testsuite"), 2U);
  EXPECT_THAT(junit_xml({missing}),
              HasSubstr("<property name=\"not-run\" value=\"nginx is not installed\"/>"));
  EXPECT_THAT(junit_xml({missing}), HasSubstr("tests=\"0\""));
}

// Markup, quotes, newlines and control characters survive a parse; bad UTF-8 becomes U+FFFD.
TEST(Junit, EscapingSurvivesAParse) {
  EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(xml_escape("x\ty\nz\r"), "x&#9;y&#10;z&#13;");
  EXPECT_EQ(xml_escape(std::string("a\x01"
                                   "b",
                                   3)),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(xml_escape("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(xml_escape("bad\xC3"), "bad\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");  // 4 bytes, kept
  EXPECT_EQ(xml_escape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong "/"
  auto run = sample_run();
  run.report.scenarios[2].note = "a <tag> & \"quotes\"\nline two\x02";
  const auto suite = parse(junit_xml({run})).get_child("testsuites.testsuite");
  EXPECT_EQ(testcase(suite, "stream").get<std::string>("skipped.<xmlattr>.message"),
            "a <tag> & \"quotes\"\nline two\xEF\xBF\xBD");
}

}  // namespace
}  // namespace loiter::reports
