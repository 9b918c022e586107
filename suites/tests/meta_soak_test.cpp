// Meta-tests of the soak: a short soak FAILS against the reference server with a fault
// that shows only over time (a leak under churn, memory or latency that grows with traffic).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "self_test.hpp"

namespace loiter::suites {
namespace meta_soak_test {  // named: unity batches put other tests' helpers beside these

using reports::Finding;
using ::testing::Contains;
using ::testing::Field;
using testing::findings_of;
namespace codes = reports::codes;
using namespace std::chrono_literals;
using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::self_test_reference;

// The soak, short (8 s of 5,000 req/s with its default churn): a leak seen only under
// churn, and memory that grows with traffic, each fails it on its slope; latency that grows
// with the requests served fails it on its last p99.
struct SoakFaultCase {
  std::string fault;
  std::string subject;     // the slope that must be over its bound: "fds", "rss"; "": none
  std::string descriptor;  // the descriptor type the finding must name; empty: any
  std::string code = codes::kSlopeOverBound;  // the finding's code
  std::size_t load_connections = 16;          // the regular traffic's keep-alive pool
  bool h3 = false;  // over HTTP/3: reference-h3, its regular traffic request streams
  // The traffic's length: over HTTP/3 20 s, as reference-h3.soak (its RSS climbs for ~10 s
  // of QUIC churn first, and a shorter soak without a fault fails on that slope).
  std::chrono::seconds duration{8};
};

const std::vector<SoakFaultCase> kSoakFaultCases = {
    // Every 200th connection the client closes keeps a duplicate of its socket: FDs grow
    // with the churn, and the finding names sockets.
    {"leak-fd-under-churn", "fds", "socket"},
    // Every request's head kept for good: RSS grows with the traffic, FDs do not.
    {"memory-per-request", "rss", ""},
    // Every request past the first 10,000 waits longer the more were served: the last
    // window's p99 is far above the first's. 200 connections, so that the traffic keeps up
    // with its waits (16 could carry only 350 a second at 45 ms each).
    {"slows-with-requests", "", "", codes::kP99Grew, 200},
    // Over HTTP/3 too: every request stream's head kept (the soak's regular traffic is the
    // HTTP/3 exchange on an [h3] target).
    {"memory-per-request", "rss", "", codes::kSlopeOverBound, 16, /*h3=*/true,
     std::chrono::seconds(20)},
};

const ScenarioParameters kShortSoak{
    .load_rate = 5000.0, .load_duration = std::chrono::seconds(8), .load_connections = 16};

class SoakFaultIsCaught : public ::testing::TestWithParam<SoakFaultCase> {};

// The short soak fails with a slope over its bound, about the quantity the fault grows and
// naming the descriptor type that grew (or with the finding of the row's code: p99-grew).
TEST_P(SoakFaultIsCaught, SoakFailsOnTheSlopeOfWhatLeaks) {
  const auto& c = GetParam();
  auto short_soak = kShortSoak;
  short_soak.load_connections = c.load_connections;
  short_soak.load_duration = c.duration;
  const auto target = c.h3 ? fixtures::reference_target({.header = 1s,
                                                         .body = 1s,
                                                         .idle = 1s,
                                                         .send = 1s,
                                                         .threads = 1,
                                                         .faults = {c.fault},
                                                         .h3 = true})
                           : self_test_reference({c.fault});
  const auto result =
      run_scenario(*find_scenario("soak"), target, testing::meta_timing(), short_soak);
  testing::keep_examples(result, c.fault);
  ASSERT_FALSE(result.skipped.has_value()) << *result.skipped;
  EXPECT_FALSE(result.verdict.passed) << "the soak cannot catch " << c.fault;
  EXPECT_THAT(result.verdict.findings,
              Contains(AllOf(Field("code", &Finding::code, c.code),
                             Field("subject", &Finding::subject, c.subject),
                             Field("descriptor", &Finding::descriptor, HasSubstr(c.descriptor)))))
      << findings_of(result);
}

INSTANTIATE_TEST_SUITE_P(MetaSoak, SoakFaultIsCaught, ::testing::ValuesIn(kSoakFaultCases),
                         [](const ::testing::TestParamInfo<SoakFaultCase>& param_info) {
                           std::string name = param_info.param.fault;
                           std::ranges::replace(name, '-', '_');
                           return param_info.param.h3 ? name + "_h3" : name;
                         });

}  // namespace meta_soak_test
}  // namespace loiter::suites
