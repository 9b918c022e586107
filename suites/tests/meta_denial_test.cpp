// The denial ladder's meta rows: each reference-server fault that limits how many stalled
// connections the server can bear lowers a kind's knee, and the plain reference server is
// not denied at the same steps. Each row runs the plain server and the faulty one at the
// same steps, as a comparison (baseline, candidate), and expects the candidate's knee lower.
#include <gtest/gtest.h>

#include <chrono>

#include "loiter/reports/denial.hpp"
#include "loiter/suites/ladder/denial_run.hpp"
#include "loiter/suites/runner/target_choice.hpp"

namespace loiter::suites {
namespace meta_denial_test {

using namespace std::chrono_literals;

struct DenialRow {
  std::string name;
  std::string fault;
  std::string kind;
  std::vector<std::size_t> held;
  reports::DenialCause cause;  // what the faulty server ran into at its knee
};

std::ostream& operator<<(std::ostream& out, const DenialRow& row) { return out << row.name; }

class MetaDenial : public ::testing::TestWithParam<DenialRow> {};

TEST_P(MetaDenial, TheFaultLowersTheKnee) {
  const auto& row = GetParam();
  ladder::DenialRequest request{
      .sides = {{.role = "baseline", .target = choose_target({.name = "reference"})},
                {.role = "candidate",
                 .target = choose_target({.name = "reference", .faults = {row.fault}})}},
      .kinds = {row.kind},
      .held = row.held,
      .rate = 200,
      .connections = 8,
      .duration = 1s,
      // Generous: what these faults take away is every answer, not a few milliseconds, and
      // the rows run beside others.
      .p99_bound = 2s,
      .least_2xx_share = 0.9};
  const auto denial = ladder::run_denial(request);
  ASSERT_EQ(denial.sides.size(), 2U);
  const auto& plain = denial.sides[0].kinds.at(0);
  const auto& faulty = denial.sides[1].kinds.at(0);
  EXPECT_FALSE(plain.knee) << "the plain reference server was denied at " << *plain.knee
                           << " held: " << plain.steps.back().why;
  EXPECT_EQ(plain.highest, row.held.back());
  ASSERT_TRUE(faulty.knee) << "with " << row.fault << " it was not denied up to " << faulty.highest;
  EXPECT_EQ(*faulty.knee, row.held.back());
  EXPECT_EQ(faulty.steps.back().cause, row.cause) << faulty.steps.back().cause_note;
  ASSERT_EQ(denial.comparison.size(), 1U);
  EXPECT_EQ(denial.comparison[0].change, reports::KneeChange::lower);
  EXPECT_TRUE(reports::candidate_denied_sooner(denial));
}

// accept-cap: no accept while 500 sessions are open; 2,000 silent connections leave the
// regular traffic's in the accept queue behind them. stall-worker-pool: a connection takes
// one of 64 workers until its request was read whole; 256 partial heads take them all.
INSTANTIATE_TEST_SUITE_P(
    Reference, MetaDenial,
    ::testing::Values(
        DenialRow{"accept_cap_silent", "accept-cap", "silent", {250, 2000},
                  reports::DenialCause::connection_cap},
        DenialRow{"stall_worker_pool_partial_header", "stall-worker-pool", "partial-header",
                  {32, 256}, reports::DenialCause::connection_cap}),
    [](const auto& row_info) { return row_info.param.name; });

}  // namespace meta_denial_test
}  // namespace loiter::suites
