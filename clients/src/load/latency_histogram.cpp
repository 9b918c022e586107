#include "loiter/clients/load/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace loiter::clients {

LatencyHistogram::LatencyHistogram(Duration highest)
    : highest_(static_cast<std::uint64_t>(std::max<Duration::rep>(highest.count(), 1))) {}

// Below kLinear: the value itself. Above: 128 buckets per power of two, the top 8 bits of
// the value (its leading 1 and the next 7) saying which.
std::size_t LatencyHistogram::index_of(std::uint64_t value) {
  if (value < kLinear) return static_cast<std::size_t>(value);
  const int msb = static_cast<int>(std::bit_width(value)) - 1;  // >= 8
  const int shift = msb - kSubBits;
  const std::uint64_t sub = (value >> shift) - (std::uint64_t{1} << kSubBits);  // 0..127
  return static_cast<std::size_t>(
      kLinear + static_cast<std::uint64_t>(msb - kSubBits - 1) * (std::uint64_t{1} << kSubBits) +
      sub);
}

// The middle of the values that share bucket `index`.
std::uint64_t LatencyHistogram::middle_of(std::size_t index) {
  if (index < kLinear) return index;
  const std::uint64_t above = index - kLinear;
  const int shift = static_cast<int>(above >> kSubBits) + 1;
  const std::uint64_t sub =
      (above & ((std::uint64_t{1} << kSubBits) - 1)) | (std::uint64_t{1} << kSubBits);
  const std::uint64_t lowest = sub << shift;
  return lowest + ((std::uint64_t{1} << shift) >> 1);
}

void LatencyHistogram::record(Duration value) {
  std::uint64_t v = value.count() > 0 ? static_cast<std::uint64_t>(value.count()) : 0;
  if (v > highest_) {
    v = highest_;
    ++clamped_;
  }
  const std::size_t index = index_of(v);
  cover(index, index);
  ++counts_[index - first_];
  min_ = count_ ? std::min(min_, v) : v;
  max_ = count_ ? std::max(max_, v) : v;
  ++count_;
  sum_ += static_cast<double>(v);
}

void LatencyHistogram::cover(std::size_t low, std::size_t high) {
  if (counts_.empty()) {
    first_ = low;
    counts_.assign(high - low + 1, 0);
    return;
  }
  if (low < first_) {
    counts_.insert(counts_.begin(), first_ - low, 0);
    first_ = low;
  }
  if (high - first_ >= counts_.size()) counts_.resize(high - first_ + 1, 0);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  if (!other.counts_.empty()) {
    cover(other.first_, other.first_ + other.counts_.size() - 1);
    for (std::size_t i = 0; i < other.counts_.size(); ++i) {
      counts_[other.first_ + i - first_] += other.counts_[i];
    }
  }
  min_ = count_ ? std::min(min_, other.min_) : other.min_;
  max_ = count_ ? std::max(max_, other.max_) : other.max_;
  count_ += other.count_;
  clamped_ += other.clamped_;
  sum_ += other.sum_;
  highest_ = std::max(highest_, other.highest_);
}

Duration LatencyHistogram::percentile(double p) const {
  if (count_ == 0) return Duration::zero();
  if (p <= 0.0) return min();
  if (p >= 100.0) return max();
  const double wanted = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(count_);
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(wanted)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {  // bounded by the buckets
    seen += counts_[i];
    if (seen >= rank) {
      // The bucket's middle, but never outside what was actually recorded.
      return Duration(static_cast<Duration::rep>(std::clamp(middle_of(first_ + i), min_, max_)));
    }
  }
  return Duration(static_cast<Duration::rep>(max_));
}

LatencyHistogram::Parts LatencyHistogram::parts() const {
  Parts parts{.highest = highest_, .buckets = {}, .clamped = clamped_, .min = min_, .max = max_,
              .sum = sum_};
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] != 0) parts.buckets.emplace_back(first_ + i, counts_[i]);
  }
  return parts;
}

LatencyHistogram LatencyHistogram::from_parts(const Parts& parts) {
  LatencyHistogram h(Duration(static_cast<Duration::rep>(std::max<std::uint64_t>(parts.highest, 1))));
  const std::size_t last = index_of(h.highest_);
  for (const auto& [index, count] : parts.buckets) {
    if (index > last) {
      throw std::invalid_argument("a latency bucket beyond the histogram's highest value");
    }
    h.cover(index, index);
    h.counts_[index - h.first_] += count;
    h.count_ += count;
  }
  h.clamped_ = parts.clamped;
  h.min_ = parts.min;
  h.max_ = parts.max;
  h.sum_ = parts.sum;
  return h;
}

Duration LatencyHistogram::mean() const {
  if (count_ == 0) return Duration::zero();
  return Duration(static_cast<Duration::rep>(std::llround(sum_ / static_cast<double>(count_))));
}

}  // namespace loiter::clients
