// Which requests of the timeline are churn (LoadOptions::churn): request i's kind follows
// from i alone, by the fractional part of i × (golden ratio − 1) against the cumulative
// shares. That sequence is as even as a sequence gets (three-distance theorem): every
// window of about 1 / share consecutive requests holds about one of each kind.
#include <cstdint>

#include "loiter/clients/load/load.hpp"

namespace loiter::clients {

namespace {

// 2^64 / golden ratio, odd: i × kWeyl modulo 2^64 is frac(i × 0.618…) in 64-bit fixed point,
// exact for every index (no floating-point drift over a long run).
constexpr std::uint64_t kWeyl = 0x9E3779B97F4A7C15ull;
constexpr double kTwoTo64 = 18446744073709551616.0;

}  // namespace

RequestKind request_kind(const Churn& churn, std::uint64_t index) {
  const double u = static_cast<double>(index * kWeyl) / kTwoTo64;  // in [0, 1)
  double bound = churn.fresh;
  if (u < bound) return RequestKind::fresh;
  bound += churn.server_close;
  if (u < bound) return RequestKind::server_close;
  bound += churn.abort;
  if (u < bound) return RequestKind::abort;
  return RequestKind::pooled;
}

}  // namespace loiter::clients
