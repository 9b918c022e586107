// Meta-tests of the HTTP/2 flood family: each flood scenario FAILS against the reference
// server over h2c with a flood limit taken away, or a flood ended wrongly or too dearly, with
// a finding about the flood (its frames, its GOAWAY, the control client, the server's RSS).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "self_test.hpp"

namespace loiter::suites {
namespace meta_flood_test {  // named: unity batches put other tests' helpers beside these

using reports::Finding;
using ::testing::Contains;
using ::testing::Field;
using testing::findings_of;
namespace codes = reports::codes;
using namespace std::chrono_literals;

// The flood family: the reference server over h2c (fixtures/targets/reference-h2c.toml)
// with a flood limit taken away, or a flood ended wrongly or at too high a cost.
struct FloodFaultCase {
  std::string scenario;
  std::string fault;
  std::vector<std::string> codes;   // any of these findings names the symptom
  Duration deadline = 1s;           // the server's deadlines
  ScenarioParameters parameters{};  // defaults (one flood), unless the row floods more
  std::string name{};  // the test's name after scenario and fault, where a pair has two rows
};

// The floods' deadlines where a row needs the server to end nothing but the flood itself: a
// minute, as keepalive timeouts commonly are (nginx's 75 s), longer than any flood's patience
// (its lead, flood and grace, and the connect timeout: under 9 s at scale 1), so that neither
// the idle deadline nor the header deadline closes the connection before the client gives up.
constexpr Duration kFloodLongDeadline = 60s;

const std::vector<FloodFaultCase> kFloodFaultCases = {
    // The header block kept whole however many CONTINUATION frames come (VU#421644): the
    // flood is never ended within its frames, and the server's memory grows with it.
    {"h2-continuation-flood",
     "continuation-unbounded",
     {codes::kFloodNotEnded, codes::kFloodOverFrames, codes::kRssOverBound}},
    // Streams opened and reset without limit (CVE-2023-44487): the flood runs to its end.
    // At the 1 s deadlines the idle deadline then closes the connection (GOAWAY(NO_ERROR)
    // and a close, 1 s after the last reset stream): ended, but only after all its frames.
    {"h2-rapid-reset", "no-rapid-reset-limit", {codes::kFloodNotEnded, codes::kFloodOverFrames}},
    // The same server with a keepalive timeout longer than the flood's patience: nothing ends
    // the flood, not even after its last frame.
    {.scenario = "h2-rapid-reset",
     .fault = "no-rapid-reset-limit",
     .codes = {codes::kFloodNotEnded},
     .deadline = kFloodLongDeadline,
     .name = "long_keepalive"},
    // Twenty-four CONTINUATION floods at once, each 5,000 frames of 1 KiB fields (twice the
    // declared frames): the header blocks kept whole (a peak of 91 to 134 MiB over twelve
    // runs) outgrow the 64 MiB bound.
    // At 4 s deadlines, twice the flood's 2 s, each block is whole before its header deadline
    // ends it (at 1 s the server read about half of them in time: a peak of 66 MiB). One
    // flood's 5 MiB could not tell a server that keeps its blocks from one that does not.
    {.scenario = "h2-continuation-flood",
     .fault = "continuation-unbounded",
     .codes = {codes::kRssOverBound},
     .deadline = 4s,
     .parameters = {.count = 24},
     .name = "many_floods"},
    // A rapid reset ended at its limit, but with the graceful GOAWAY(NO_ERROR) of a shutdown
    // and no close (the flood waits a second for one, then closes itself): the client is not
    // told it was flooding.
    {"h2-rapid-reset", "flood-goaway-no-error", {codes::kFloodGoawayCode}},
    // A rapid reset ended at its limit, its ~1,000 streams' work still queued at the server's
    // one worker (10 ms each): the control client's requests wait behind ~10 s of it, past
    // its patience (under 9 s). (It keeps at most 100 requests unanswered, the server's
    // concurrent streams, and holds the rest back, their latency counted from when due.)
    {"h2-rapid-reset", "reset-keeps-backend-work", {codes::kControlUnanswered}},
};

class FloodFaultIsCaught : public ::testing::TestWithParam<FloodFaultCase> {};

// The flood scenario fails against the faulty server, with a finding about the flood (its
// frames, its GOAWAY's code, the control client's answers, or the server's RSS).
TEST_P(FloodFaultIsCaught, FloodScenarioFailsWithAFindingNamingTheSymptom) {
  const auto& c = GetParam();
  const auto target = testing::self_test_reference_at(c.deadline, {c.fault}, /*tls=*/false,
                                                      /*h2c=*/true);
  const auto result =
      run_scenario(*find_scenario(c.scenario), target, testing::meta_timing(), c.parameters);
  testing::keep_examples(result, c.fault);
  ASSERT_FALSE(result.skipped.has_value()) << *result.skipped;
  EXPECT_FALSE(result.verdict.passed) << "the scenario cannot catch " << c.fault;
  EXPECT_THAT(result.verdict.findings,
              Contains(Field("code", &Finding::code, ::testing::AnyOfArray(c.codes))))
      << findings_of(result);
}

INSTANTIATE_TEST_SUITE_P(MetaFlood, FloodFaultIsCaught, ::testing::ValuesIn(kFloodFaultCases),
                         [](const ::testing::TestParamInfo<FloodFaultCase>& param_info) {
                           const auto& c = param_info.param;
                           std::string name = c.scenario + "_" + c.fault;
                           if (!c.name.empty()) name += "_" + c.name;
                           std::ranges::replace(name, '-', '_');
                           return name;
                         });

}  // namespace meta_flood_test
}  // namespace loiter::suites
