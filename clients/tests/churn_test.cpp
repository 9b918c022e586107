// request_kind spreads each churn share evenly over the timeline: totals match the shares,
// every window of about 1 / share requests holds about one, and it is a function of the
// index alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "loiter/clients/load/load.hpp"

namespace loiter::clients {
namespace {

constexpr std::uint64_t kRequests = 200'000;

std::vector<RequestKind> kinds_of(const Churn& churn) {
  std::vector<RequestKind> kinds;
  kinds.reserve(kRequests);
  for (std::uint64_t i = 0; i < kRequests; ++i) kinds.push_back(request_kind(churn, i));
  return kinds;
}

// prefix[i]: requests of `kind` among the first i.
std::vector<std::uint64_t> prefix_counts(const std::vector<RequestKind>& kinds, RequestKind kind) {
  std::vector<std::uint64_t> prefix{0};
  for (const auto k : kinds) prefix.push_back(prefix.back() + (k == kind ? 1 : 0));
  return prefix;
}

struct WindowCounts {
  std::uint64_t least = ~std::uint64_t{0}, most = 0;
};

WindowCounts windows_of(const std::vector<std::uint64_t>& prefix, std::size_t length) {
  WindowCounts counts;
  for (std::size_t i = 0; i + length < prefix.size(); ++i) {
    const auto n = prefix[i + length] - prefix[i];
    counts.least = std::min(counts.least, n);
    counts.most = std::max(counts.most, n);
  }
  return counts;
}

// Each kind's total is its share of the requests, within 3 (not a random draw).
TEST(RequestKind, TotalsFollowTheShares) {
  const Churn churn{.fresh = 0.1, .server_close = 0.1, .abort = 0.05};
  const auto kinds = kinds_of(churn);
  const std::pair<RequestKind, double> shares[] = {{RequestKind::fresh, 0.1},
                                                   {RequestKind::server_close, 0.1},
                                                   {RequestKind::abort, 0.05},
                                                   {RequestKind::pooled, 0.75}};
  for (const auto& [kind, share] : shares) {
    const auto n = prefix_counts(kinds, kind).back();
    EXPECT_NEAR(static_cast<double>(n), share * kRequests, 3.0) << static_cast<int>(kind);
  }
}

// At soak-like shares, every window of 2 / share requests holds at least one of the kind
// and at most 3, and every window of 10 / share holds 10 ± 2: no bursts, no droughts.
TEST(RequestKind, EveryWindowOfAboutOneOverTheShareHoldsAboutOne) {
  const Churn churn{.fresh = 0.02, .server_close = 0.01, .abort = 0.005};
  const auto kinds = kinds_of(churn);
  const std::pair<RequestKind, double> shares[] = {
      {RequestKind::fresh, 0.02}, {RequestKind::server_close, 0.01}, {RequestKind::abort, 0.005}};
  for (const auto& [kind, share] : shares) {
    const auto prefix = prefix_counts(kinds, kind);
    const auto pairs = windows_of(prefix, static_cast<std::size_t>(2.0 / share));
    EXPECT_GE(pairs.least, 1u) << "share " << share;
    EXPECT_LE(pairs.most, 3u) << "share " << share;
    const auto tens = windows_of(prefix, static_cast<std::size_t>(10.0 / share));
    EXPECT_GE(tens.least, 8u) << "share " << share;
    EXPECT_LE(tens.most, 12u) << "share " << share;
  }
}

// The kind follows from the index alone: asked twice, or out of order, the same answer.
TEST(RequestKind, IsAFunctionOfTheIndexAlone) {
  const Churn churn{.fresh = 0.03, .server_close = 0.02, .abort = 0.01};
  const auto kinds = kinds_of(churn);
  for (std::uint64_t i = kRequests; i-- > 0;) ASSERT_EQ(request_kind(churn, i), kinds[i]);
  EXPECT_EQ(request_kind(churn, 27'000'000'123ull), request_kind(churn, 27'000'000'123ull));
}

// No churn: every request is pooled; shares adding up to 1: none is.
TEST(RequestKind, NoSharesMeansPooledAndFullSharesMeanNonePooled) {
  const Churn none;
  const Churn full{.fresh = 0.5, .server_close = 0.25, .abort = 0.25};
  for (std::uint64_t i = 0; i < 10'000; ++i) {
    ASSERT_EQ(request_kind(none, i), RequestKind::pooled);
    ASSERT_NE(request_kind(full, i), RequestKind::pooled);
  }
}

}  // namespace
}  // namespace loiter::clients
