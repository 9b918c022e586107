// A log-linear latency histogram (HdrHistogram's design): values in nanoseconds, exact below
// 256 ns, then each power-of-two range split into 128 linear sub-buckets, so a value is
// known within 1/256 (0.4 %) of itself. Values above `highest` are clamped and counted.
// Percentiles are over all recorded samples; two histograms merge by adding counts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "loiter/clients/record.hpp"

namespace loiter::clients {

class LatencyHistogram {
 public:
  LatencyHistogram() : LatencyHistogram(std::chrono::seconds(120)) {}
  explicit LatencyHistogram(Duration highest);

  void record(Duration value);
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return count_; }
  std::uint64_t clamped() const { return clamped_; }
  // The value at or below which p % of the samples lie (p in [0, 100]); 0 when empty.
  Duration percentile(double p) const;
  Duration min() const { return count_ ? Duration(min_) : Duration::zero(); }
  Duration max() const { return count_ ? Duration(max_) : Duration::zero(); }
  Duration mean() const;
  Duration highest() const { return Duration(highest_); }
  // The buckets it holds in memory: from the lowest value's to the highest's.
  std::size_t buckets_held() const { return counts_.size(); }

  // Everything the histogram holds, as plain numbers: what a shard writes down, so that the
  // merge adds counts (never combines percentiles). from_parts() gives back an equal
  // histogram; it throws std::invalid_argument for a bucket beyond what `highest` allows.
  struct Parts {
    std::uint64_t highest = 0;                                 // ns
    std::vector<std::pair<std::size_t, std::uint64_t>> buckets;  // index, count (count > 0)
    std::uint64_t clamped = 0, min = 0, max = 0;               // ns
    double sum = 0.0;                                          // ns
  };
  Parts parts() const;
  static LatencyHistogram from_parts(const Parts& parts);

 private:
  static constexpr int kSubBits = 7;  // 128 linear sub-buckets per power of two
  static constexpr std::uint64_t kLinear = 2u << kSubBits;  // exact below 256 ns

  static std::size_t index_of(std::uint64_t value);
  static std::uint64_t middle_of(std::size_t index);

  // Makes counts_ cover buckets [low, high] (and what it covered before).
  void cover(std::size_t low, std::size_t high);

  std::uint64_t highest_;
  // Buckets first_ .. first_ + size - 1: from the lowest index recorded to the highest, so a
  // histogram of latencies that never go below 100 µs holds none of the ~1,400 buckets under
  // them (a soak keeps one histogram a second).
  std::size_t first_ = 0;
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::uint64_t clamped_ = 0;
  std::uint64_t min_ = 0;
  std::uint64_t max_ = 0;
  double sum_ = 0.0;  // of recorded (clamped) values, in ns
};

}  // namespace loiter::clients
