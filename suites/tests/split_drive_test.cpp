// held-capacity beyond one client process: with room for 100 connections a process, 300
// held connections run in 3 forked client processes on one timeline, and the observation
// reads as one process's: every record, each from its own 4-tuple.
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
  // Which index each record is read back at is MergeFleets.PutsEveryFleetBackInIndexOrder's
  // to check (the lines' indexes, whatever their order). Not the records' connect times here:
  // they follow the index only while each process keeps its schedule. A forked process
  // started its share 50 ms late beside six other tests (records 2 and 52), and one behind
  // its schedule opened connection 6 86 us before connection 3 (a slot already due runs at
  // once, one still waiting on its timer a turn later).
  EXPECT_TRUE(no_child_left());
}

}  // namespace
}  // namespace loiter::suites
