// The latency histogram keeps every value within 1 % of itself, gives the percentiles of
// known distributions, and merges as if every value had been recorded into one histogram.
#include "loiter/clients/load/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;

double relative_error(Duration actual, Duration expected) {
  return std::abs(static_cast<double>(actual.count() - expected.count())) /
         static_cast<double>(expected.count());
}

// A single value comes back within 1 % at every percentile, from 1 µs to 10 s.
TEST(LatencyHistogram, SingleValueComesBackWithinOnePercentFromMicrosecondsToSeconds) {
  for (double ns = 1'000; ns <= 10e9; ns *= 1.013) {  // a log sweep, ~1,250 values
    const Duration value(static_cast<Duration::rep>(ns));
    LatencyHistogram one;
    one.record(value);
    ASSERT_LE(relative_error(one.percentile(100), value), 0.01) << value.count() << " ns";
    ASSERT_LE(relative_error(one.percentile(50), value), 0.01) << value.count() << " ns";
    ASSERT_EQ(one.max(), value);
    ASSERT_EQ(one.min(), value);
  }
}

// Percentiles over many values each stay within 1 % of the exact order statistic.
TEST(LatencyHistogram, PercentilesOfALogSweepAreWithinOnePercentOfTheExactOnes) {
  std::vector<Duration> values;
  for (double ns = 1'000; ns <= 10e9; ns *= 1.001)
    values.emplace_back(static_cast<Duration::rep>(ns));
  LatencyHistogram all;
  for (const auto v : values) all.record(v);
  for (const double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    const auto rank =
        static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
    EXPECT_LE(relative_error(all.percentile(p), values[rank - 1]), 0.01) << "p" << p;
  }
}

// Uniform 1..1000 ms: p50 ≈ 500 ms and p99 ≈ 990 ms, within 1 %.
TEST(LatencyHistogram, UniformMillisecondsGiveTheirKnownPercentiles) {
  LatencyHistogram h;
  for (int ms = 1; ms <= 1000; ++ms) h.record(std::chrono::milliseconds(ms));
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_LE(relative_error(h.percentile(50), 500ms), 0.01);
  EXPECT_LE(relative_error(h.percentile(99), 990ms), 0.01);
  EXPECT_LE(relative_error(h.percentile(90), 900ms), 0.01);
  EXPECT_EQ(h.percentile(100), 1000ms);
  EXPECT_EQ(h.percentile(0), 1ms);
  EXPECT_LE(relative_error(h.mean(), 500500us), 0.001);
}

// Merging two histograms equals recording all their values into one.
TEST(LatencyHistogram, MergeEqualsRecordingIntoOne) {
  LatencyHistogram a, b, one;
  for (int i = 1; i <= 5000; ++i) {
    const Duration v = std::chrono::microseconds(i * 37 % 100'000 + 1);
    (i % 3 ? a : b).record(v);
    one.record(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), one.count());
  EXPECT_EQ(a.min(), one.min());
  EXPECT_EQ(a.max(), one.max());
  EXPECT_EQ(a.mean(), one.mean());
  for (const double p : {0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(a.percentile(p), one.percentile(p)) << "p" << p;
  }
}

// An empty histogram answers zero everywhere; merging an empty one changes nothing.
// It holds only the buckets from its lowest value to its highest (a soak keeps one a second):
// latencies of 0.3-20 ms need fewer than 800 of the 2,329 buckets up to 20 ms, whichever value
// comes first; a lower value later, or a merge, widens it and the percentiles stay exact.
TEST(LatencyHistogram, HoldsOnlyTheBucketsBetweenItsLowestAndHighestValues) {
  LatencyHistogram h;
  h.record(2ms);
  EXPECT_EQ(h.buckets_held(), 1u);
  h.record(20ms);
  h.record(300us);
  EXPECT_LT(h.buckets_held(), 800u);
  EXPECT_EQ(h.min(), 300us);
  EXPECT_LE(relative_error(h.percentile(50), 2ms), 0.01);
  LatencyHistogram low;
  low.record(1us);
  low.merge(h);
  EXPECT_EQ(low.count(), 4u);
  EXPECT_LE(relative_error(low.percentile(25), 1us), 0.01);
  EXPECT_LE(relative_error(low.percentile(50), 300us), 0.01);
  EXPECT_LE(relative_error(low.percentile(100), 20ms), 0.01);
  const auto back = LatencyHistogram::from_parts(h.parts());
  EXPECT_EQ(back.buckets_held(), h.buckets_held());
  EXPECT_EQ(back.percentile(50), h.percentile(50));
}

TEST(LatencyHistogram, EmptyHistogramAnswersZero) {
  LatencyHistogram empty;
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_EQ(empty.percentile(50), Duration::zero());
  EXPECT_EQ(empty.percentile(100), Duration::zero());
  EXPECT_EQ(empty.min(), Duration::zero());
  EXPECT_EQ(empty.max(), Duration::zero());
  EXPECT_EQ(empty.mean(), Duration::zero());
  LatencyHistogram some;
  some.record(3ms);
  some.merge(empty);
  EXPECT_EQ(some.count(), 1u);
  empty.merge(some);
  EXPECT_EQ(empty.min(), 3ms);
}

// Values above `highest` are clamped to it and counted.
TEST(LatencyHistogram, ValuesAboveHighestAreClampedAndCounted) {
  LatencyHistogram h(1s);
  h.record(500ms);
  h.record(5s);
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.clamped(), 1u);
  EXPECT_EQ(h.max(), 1s);
}

}  // namespace
}  // namespace loiter::clients
