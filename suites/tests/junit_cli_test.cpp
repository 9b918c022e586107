// `--junit` end to end: `loiter check` against the reference server with a planted fault
// writes JUnit XML a CI system can read (well-formed, one testsuite, the failing testcase
// naming what failed, the run directory as a property), and `loiter report --junit` renders
// the same XML again from the stored run; Ctrl-C still writes it. Each test leaves no server
// behind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <filesystem>
#include <map>

#include "cli_run.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using boost::property_tree::ptree;
using ::testing::HasSubstr;

ptree parse(const fs::path& path) {
  ptree tree;
  boost::property_tree::read_xml(path.string(), tree);
  return tree;
}

std::map<std::string, std::string> properties(const ptree& suite) {
  std::map<std::string, std::string> out;
  for (const auto& [tag, p] : suite.get_child("properties")) {
    out[p.get<std::string>("<xmlattr>.name")] = p.get<std::string>("<xmlattr>.value");
  }
  return out;
}

// A header-deadline bug caught by `silent` is one failing testcase whose message names
// still-open, in one testsuite whose run-directory property is the run's directory; the
// exit code stays 1; a strict XML parser (Python's) reads the file.
TEST(CliJunit, CheckWritesTheFailureAndTheRunDirectory) {
  TempDir tmp;
  const auto junit = tmp.path() / "loiter-junit.xml";
  const std::vector<std::string> argv{LOITER_BINARY,      "check",
                                      "--runs",           (tmp.path() / "runs").string(),
                                      "--header-timeout", "1",
                                      "--body-timeout",   "1",
                                      "--idle-timeout",   "1",
                                      "--scenario",       "silent",
                                      "--fault",          "no-header-deadline",
                                      "--junit",          junit.string()};
  ASSERT_EQ(run(argv, tmp.path() / "out"), 1) << read_text(tmp.path() / "out");
  const auto tree = parse(junit);
  ASSERT_EQ(tree.get_child("testsuites").count("testsuite"), 1U);
  const auto& suite = tree.get_child("testsuites.testsuite");
  // The reference server with a fault planted is a target of its own name.
  EXPECT_EQ(suite.get<std::string>("<xmlattr>.name"), "reference+no-header-deadline");
  EXPECT_EQ(suite.get<int>("<xmlattr>.tests"), 1);
  EXPECT_EQ(suite.get<int>("<xmlattr>.failures"), 1);
  const auto& testcase = suite.get_child("testcase");
  EXPECT_EQ(testcase.get<std::string>("<xmlattr>.name"), "silent");
  EXPECT_EQ(testcase.get<std::string>("<xmlattr>.classname"),
            "loiter.reference+no-header-deadline");
  EXPECT_THAT(testcase.get<std::string>("failure.<xmlattr>.type"), HasSubstr("still-open"));
  EXPECT_THAT(testcase.get<std::string>("failure.<xmlattr>.message"), HasSubstr("still open"));
  const auto dir = only_run_directory(tmp.path() / "runs");
  EXPECT_TRUE(fs::equivalent(properties(suite).at("run-directory"), dir));
  EXPECT_EQ(run({"/usr/bin/python3", "-c",
                 "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", junit.string()},
                tmp.path() / "python.out"),
            0)
      << read_text(tmp.path() / "python.out");
  // Rendered again from the stored run: the same XML.
  const auto again = tmp.path() / "again.xml";
  ASSERT_EQ(run({LOITER_BINARY, "report", dir.string(), "--html", (tmp.path() / "r.html").string(),
                 "--junit", again.string()},
                tmp.path() / "report.out"),
            0)
      << read_text(tmp.path() / "report.out");
  EXPECT_EQ(read_text(again), read_text(junit));
}

// Ctrl-C during the second scenario still writes the JUnit XML, with the first scenario in
// it; the exit code stays 130.
TEST(CliJunit, CtrlCStillWritesIt) {
  using namespace std::chrono_literals;
  TempDir tmp;
  const auto junit = tmp.path() / "loiter-junit.xml";
  Child check({LOITER_BINARY, "check", "--runs", (tmp.path() / "runs").string(), "--header-timeout",
               "1", "--body-timeout", "1", "--idle-timeout", "1", "--scenario", "silent",
               "--scenario", "partial-header", "--junit", junit.string()},
              tmp.path() / "out");
  ASSERT_TRUE(output_shows(tmp.path() / "out", "[2/2] partial-header", 30s))
      << read_text(tmp.path() / "out");
  check.signal(SIGINT);
  EXPECT_EQ(check.wait(30), 130) << read_text(tmp.path() / "out");
  const auto suite = parse(junit).get_child("testsuites.testsuite");
  EXPECT_EQ(suite.get_child("testcase").get<std::string>("<xmlattr>.name"), "silent");
  EXPECT_TRUE(fs::equivalent(properties(suite).at("run-directory"),
                             only_run_directory(tmp.path() / "runs")));
}

}  // namespace
}  // namespace loiter::suites
