// End to end, the h3 floods against the reference server over HTTP/3 (reference-h3.toml's
// [h3.flood]: 2,500 frames, RSS 24 MiB, every kind; docs/reference-h3.md, "Flood limits"):
// each scenario fails, with a finding about the flood, against the server with the limit it
// exists to check taken away. That each passes against the server with its limits, under
// the same bound, is the reference-h3-flood gate's (suites/CMakeLists.txt), as for HTTP/2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "self_test.hpp"

namespace loiter::suites {
namespace meta_flood_h3_test {  // named: unity batches put other tests' helpers beside these

using reports::Finding;
using ::testing::Contains;
using ::testing::Field;
using testing::findings_of;
namespace codes = reports::codes;

// The reference server over HTTP/3, faults as asked, promising every h3 flood within 2,500
// frames (its rapid-reset bucket closes at 1,000 reset streams: 2,000 frames and the few the
// flood sends before it reads the close) and 24 MiB of RSS (about 14 MiB under each flood
// without a fault; a fault keeps 4 to 8 KiB a frame, 20 MiB and more over a flood of 5,000).
fixtures::Target reference_h3_flood(std::vector<std::string> faults = {}) {
  auto target = testing::self_test_reference_h3(std::move(faults));
  target.h3->flood =
      fixtures::H3Flood{.frames = 2500,
                        .rss = std::uint64_t{24} << 20,
                        .kinds = {fixtures::kH3FloodKinds.begin(), fixtures::kH3FloodKinds.end()}};
  return target;
}

std::string test_name(std::string name) {
  std::ranges::replace(name, '-', '_');
  return name;
}

struct H3FloodFaultCase {
  std::string scenario;
  std::string fault;               // the reference server's --fault: one flood limit taken away
  std::vector<std::string> codes;  // any of these findings names the symptom
};

const std::vector<H3FloodFaultCase> kH3FloodFaultCases = {
    // No rapid-reset count: the flood runs to its end (5,000 frames), never closed.
    {"h3-rapid-reset", "h3-no-reset-limit", {codes::kFloodNotEnded, codes::kFloodOverFrames}},
    // NEW_CONNECTION_ID taken from ngtcp2 and 8 KiB kept for each: no retirement, no close.
    {"h3-connection-id",
     "h3-keeps-retired-ids",
     {codes::kFloodNotEnded, codes::kFloodOverFrames, codes::kRssOverBound}},
    // Field sections of any size answered, and their fields kept.
    {"h3-qpack-bomb",
     "h3-unbounded-field-section",
     {codes::kFloodNotEnded, codes::kFloodOverFrames, codes::kRssOverBound}},
    // 65,535 blocked streams advertised and taken, with as much stream credit: the flood's
    // 5,000 blocked streams are all held, the connection never closed.
    {"h3-qpack-blocked",
     "h3-qpack-unbounded-blocking",
     {codes::kFloodNotEnded, codes::kFloodOverFrames}},
    // The bounded kinds: what the fault keeps (8 KiB a frame; the encoder stream's bytes) grows
    // the server past its RSS bound.
    {"h3-encoder-stream", "h3-keeps-evicted-entries", {codes::kRssOverBound}},
    {"h3-path-challenge", "h3-keeps-path-responses", {codes::kRssOverBound}},
    {"h3-out-of-order", "h3-buffers-any-offset", {codes::kRssOverBound}},
    {"h3-ping-flood", "h3-keeps-ping-state", {codes::kRssOverBound}},
};

class H3FloodFaultIsCaught : public ::testing::TestWithParam<H3FloodFaultCase> {};

TEST_P(H3FloodFaultIsCaught, FloodScenarioFailsWithAFindingNamingTheSymptom) {
  const auto& c = GetParam();
  const auto result = run_scenario(*find_scenario(c.scenario), reference_h3_flood({c.fault}),
                                   testing::meta_timing(), {});
  testing::keep_examples(result, c.fault);
  ASSERT_FALSE(result.skipped.has_value()) << *result.skipped;
  EXPECT_FALSE(result.verdict.passed) << "the scenario cannot catch " << c.fault;
  EXPECT_THAT(result.verdict.findings,
              Contains(Field("code", &Finding::code, ::testing::AnyOfArray(c.codes))))
      << findings_of(result);
}

INSTANTIATE_TEST_SUITE_P(MetaFloodH3, H3FloodFaultIsCaught, ::testing::ValuesIn(kH3FloodFaultCases),
                         [](const ::testing::TestParamInfo<H3FloodFaultCase>& param_info) {
                           return test_name(param_info.param.scenario + "_" +
                                            param_info.param.fault);
                         });

}  // namespace meta_flood_h3_test
}  // namespace loiter::suites
