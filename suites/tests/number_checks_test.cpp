// The numeric options' checks: what --help says of them and what they refuse, in words a
// reader reads (no DBL_MAX, no "0.000000"), nan and inf refused.
#include "number_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>

namespace loiter::cli {
namespace {

using ::testing::HasSubstr;

// CLI11's own message for `value` given to an option checked by `check`; empty if taken.
std::string refusal(const CLI::Validator& check, const std::string& value) {
  CLI::App app;
  double number = 0;
  app.add_option("--load-rate", number)->check(check);
  try {
    app.parse(std::vector<std::string>{value, "--load-rate"});  // parse() takes them reversed
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return {};
}

TEST(NumberChecks, DescriptionsReadAsSentences) {
  EXPECT_EQ(positive_number().get_description(), "a positive number");
  EXPECT_EQ(positive_number(1e7).get_description(), "a positive number up to 10000000");
  EXPECT_EQ(non_negative_number().get_description(), "a number ≥ 0");
  EXPECT_EQ(number_between(0, 1).get_description(), "a number between 0 and 1");
  EXPECT_EQ(number_between(0.5, 604800).get_description(), "a number between 0.5 and 604800");
}

TEST(NumberChecks, TakeWhatFits) {
  EXPECT_EQ(refusal(positive_number(1e7), "15000"), "");
  EXPECT_EQ(refusal(positive_number(1e7), "1e7"), "");
  EXPECT_EQ(refusal(non_negative_number(), "0"), "");
  EXPECT_EQ(refusal(number_between(0, 1), "1"), "");
}

TEST(NumberChecks, RefuseNamingTheOptionAndTheValue) {
  EXPECT_EQ(refusal(positive_number(1e7), "0"),
            "--load-rate: '0' is not a positive number up to 10000000");
  EXPECT_EQ(refusal(positive_number(), "-1"), "--load-rate: '-1' is not a positive number");
  EXPECT_EQ(refusal(number_between(0, 1), "1.5"),
            "--load-rate: '1.5' is not a number between 0 and 1");
  for (const char* value : {"nan", "inf", "-inf", "", "abc", "1e400"}) {
    for (const auto& check : {positive_number(), non_negative_number(), number_between(0, 1)}) {
      const auto said = refusal(check, value);
      EXPECT_THAT(said, HasSubstr("--load-rate")) << value;
      EXPECT_THAT(said, ::testing::Not(HasSubstr("179769313"))) << value;
    }
  }
}

}  // namespace
}  // namespace loiter::cli
