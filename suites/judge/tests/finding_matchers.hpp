// Matchers on the judge's findings: the code, how many of how many, and the figure against
// the bound it broke. Tests assert these, never the sentence (reports/tests test text()).
#pragma once

#include <gmock/gmock.h>

#include <string>

#include "loiter/reports/finding.hpp"

namespace loiter::suites::testing {

using reports::Finding;
namespace codes = reports::codes;

inline auto has_code(const std::string& code) {
  return ::testing::Field("code", &Finding::code, code);
}

// `code`, about `count` connections (or requests) out of `of`.
inline auto counted(const std::string& code, std::size_t count, std::size_t of) {
  return ::testing::AllOf(has_code(code), ::testing::Field("count", &Finding::count, count),
                          ::testing::Field("of", &Finding::of, of));
}

// The figure measured and the bound it broke, to a nanosecond's worth of rounding.
inline auto figure(double measured, double bound) {
  return ::testing::AllOf(
      ::testing::Field("measured", &Finding::measured,
                       ::testing::Optional(::testing::DoubleNear(measured, 1e-9))),
      ::testing::Field("bound", &Finding::bound,
                       ::testing::Optional(::testing::DoubleNear(bound, 1e-9))));
}

template <typename Matcher>
auto with_class(reports::FindingClass klass, Matcher&& matcher) {
  return ::testing::AllOf(::testing::Field("class", &Finding::klass, klass),
                          std::forward<Matcher>(matcher));
}

}  // namespace loiter::suites::testing
