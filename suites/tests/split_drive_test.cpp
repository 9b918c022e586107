// held-capacity beyond one client process: with room for 100 connections a process, 300
// held connections run in 3 forked client processes on one timeline, and the observation
// reads as one process's: every record, in index order, each from its own 4-tuple.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>
#include <set>

#include "loiter/suites/document/report.hpp"
#include "self_test.hpp"

namespace loiter::suites {
namespace {

using testing::findings_of;
using testing::self_test_reference;

// No child of this process (server or client process) is left running or unreaped.
::testing::AssertionResult no_child_left() {
  errno = 0;
  const pid_t got = ::waitpid(-1, nullptr, WNOHANG);
  if (got == -1 && errno == ECHILD) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "a child process is left (waitpid: " << got << ")";
}

// The server answers all 300 held connections; the 3 client processes' records merge back.
TEST(SplitDrive, HeldCapacityOverThreeClientProcessesReadsAsOneProcess) {
  const auto result = run_scenario(*find_scenario("held-capacity"), self_test_reference(), timing(),
                                   {.count = 300, .connections_per_process = 100});
  ASSERT_FALSE(result.skipped.has_value()) << *result.skipped;
  EXPECT_TRUE(result.verdict.passed) << findings_of(result);
  EXPECT_EQ(result.observation.client_processes, 3u);
  EXPECT_THAT(to_report(result).figures,
              ::testing::Contains(reports::FigureGroup{
                  .name = "clients", .unit = "", .values = {{"processes", 3.0}}}));
  const auto& records = result.observation.connections;
  ASSERT_EQ(records.size(), 300u);
  std::set<std::string> sources;
  for (const auto& r : records) sources.insert(r.source);
  EXPECT_EQ(sources.size(), records.size()) << "two connections shared a source address:port";
  // Index order: the process that drove connection i (the i % 3 share) drove i + 3 after
  // it, on the shared timeline; each share's records read back in the order that process
  // opened them. Not across shares: a process forked beside busy neighbours can start its
  // share 50 ms late (records 2 and 52 once, at seven tests at a time), and where each
  // share's records go is MergeFleets.PutsEveryFleetBackInIndexOrder's to check.
  constexpr std::size_t kShares = 3;
  for (std::size_t i = 0; i + kShares < records.size(); ++i) {
    ASSERT_LT(records[i].connect_start, records[i + kShares].connect_start) << "record " << i;
  }
  EXPECT_TRUE(no_child_left());
}

}  // namespace
}  // namespace loiter::suites
