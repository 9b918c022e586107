// Numbers for readers: fixed notation at any size, never an exponent.
#include "loiter/reports/number_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

namespace loiter::reports {
namespace {

using ::testing::Not;
using ::testing::HasSubstr;

TEST(PlainNumber, ALargeValueInWholeDigits) {
  EXPECT_EQ(plain_number(1711734.0), "1711734");  // "{:g}": 1.71173e+06
  EXPECT_EQ(plain_number(1e20), "100000000000000000000");
  EXPECT_EQ(plain_number(-2.5e7), "-25000000");
}

TEST(PlainNumber, ASmallValueInDecimalsUpToNine) {
  EXPECT_EQ(plain_number(0.000123), "0.000123");  // "{:g}": 0.000123; "{}": 0.000123
  EXPECT_EQ(plain_number(0.0000123), "0.0000123");  // "{:g}": 1.23e-05
  EXPECT_EQ(plain_number(1e-12), "0");
  EXPECT_EQ(plain_number(-1e-12), "0");
}

TEST(PlainNumber, EverydayValuesAsGeneralFormatPrintsThem) {
  EXPECT_EQ(plain_number(0), "0");
  EXPECT_EQ(plain_number(2), "2");
  EXPECT_EQ(plain_number(0.5), "0.5");
  EXPECT_EQ(plain_number(1.25), "1.25");
  EXPECT_EQ(plain_number(1.0 / 3), "0.333333");
  EXPECT_EQ(plain_number(1.0 / 3, 3), "0.333");
  EXPECT_EQ(plain_number(9.9999996), "10");
}

TEST(PlainNumber, NeverAnExponent) {
  for (const double value : {1e300, std::numeric_limits<double>::max(), 1e-300,
                             std::numeric_limits<double>::denorm_min(), 123456789.123, 6.02e23}) {
    EXPECT_THAT(plain_number(value), Not(HasSubstr("e"))) << value;
    EXPECT_THAT(signed_number(-value), Not(HasSubstr("e"))) << value;
  }
}

TEST(PlainNumber, NonFiniteValuesByName) {
  EXPECT_EQ(plain_number(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(plain_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(plain_number(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(SignedNumber, ASignAlways) {
  EXPECT_EQ(signed_number(2), "+2");
  EXPECT_EQ(signed_number(-0.5), "-0.5");
  EXPECT_EQ(signed_number(0), "+0");
  EXPECT_EQ(signed_number(1.5e6), "+1500000");
}

TEST(GroupedNumber, WholeDigitsGroupedByThousands) {
  EXPECT_EQ(grouped_number(41200), "41,200");
  EXPECT_EQ(grouped_number(5000), "5,000");
  EXPECT_EQ(grouped_number(999), "999");
  EXPECT_EQ(grouped_number(1234567), "1,234,567");
  EXPECT_EQ(grouped_number(1234.5), "1,234.5");
  EXPECT_EQ(grouped_number(-5000), "-5,000");
  EXPECT_EQ(grouped_number(0.000123), "0.000123");
  EXPECT_EQ(grouped_number(41213.7, 3), "41,214");  // never fewer than the whole digits
  EXPECT_EQ(grouped_number(std::numeric_limits<double>::infinity()), "inf");
}

}  // namespace
}  // namespace loiter::reports
