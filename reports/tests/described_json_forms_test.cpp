// The described codec's forms for files older than it: a double kept a double (Float), spans
// and moments in nanoseconds or seconds under keys that say so (kForms), a struct's keys
// among another's (kInline), a struct that leaves out its empty optionals (kLeavesOutNone), a
// map keyed by whole numbers, a path as its text; each written as those files have it and
// read back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/describe/class.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

#include "loiter/reports/described_json.hpp"

namespace loiter::reports::forms_test {

struct Kept {
  double rate = 0;
  std::optional<double> lag;
  double count = 0;
};
BOOST_DESCRIBE_STRUCT(Kept, (), (rate, lag, count))

struct Inner {
  int count = 0;
  std::string name;
};
BOOST_DESCRIBE_STRUCT(Inner, (), (count, name))

using Clock = std::chrono::steady_clock;

struct Timed {
  std::chrono::nanoseconds took{};
  std::optional<std::chrono::nanoseconds> lag;
  Inner inner;
  Clock::time_point at{};
};
BOOST_DESCRIBE_STRUCT(Timed, (), (took, lag, inner, at))

struct Sparse {
  int fds = 0;
  std::optional<int> tcp;
  std::optional<std::string> problem;
};
BOOST_DESCRIBE_STRUCT(Sparse, (), (fds, tcp, problem))

}  // namespace loiter::reports::forms_test

namespace loiter::reports::described {
template <>
inline constexpr bool kLeavesOutNone<forms_test::Sparse> = true;
template <>
inline constexpr auto kForms<forms_test::Kept> = std::tuple(As<&forms_test::Kept::rate, Float>{},
                                                            As<&forms_test::Kept::lag, Float>{});
template <>
inline constexpr auto kForms<forms_test::Timed> =
    std::tuple(As<&forms_test::Timed::took, Nanoseconds<std::chrono::nanoseconds>>{},
               As<&forms_test::Timed::lag, FloatSeconds<std::chrono::nanoseconds>>{},
               As<&forms_test::Timed::at, Nanoseconds<forms_test::Clock::time_point>>{});
template <>
inline constexpr auto kInline<forms_test::Timed> = std::tuple(&forms_test::Timed::inner);
}  // namespace loiter::reports::described

namespace loiter::reports::forms_test {
namespace {

namespace json = boost::json;
using ::testing::HasSubstr;

TEST(DescribedForms, AFloatStaysADoubleWhereADoubleBecomesAWholeNumber) {
  const Kept kept{.rate = 400, .lag = 0.0, .count = 11};
  EXPECT_EQ(json::serialize(described::write(kept)), R"({"rate":4E2,"lag":0E0,"count":11})");
  const auto back = described::read<Kept>(json::parse(R"({"rate":400,"lag":null,"count":11})"));
  EXPECT_EQ(back.rate, 400.0);
  EXPECT_FALSE(back.lag.has_value());
}

TEST(DescribedForms, FormsNameTheirUnitInTheKeyAndAnInlineStructIsAmongTheKeys) {
  using namespace std::chrono_literals;
  const Timed timed{
      .took = 1'500ns, .lag = 250ms, .inner = {3, "x"}, .at = Clock::time_point(42ns)};
  const auto text = json::serialize(described::write(timed));
  EXPECT_EQ(text, R"({"took_ns":1500,"lag_s":2.5E-1,"count":3,"name":"x","at_ns":42})");
  const auto back = described::read<Timed>(json::parse(text));
  EXPECT_EQ(back.took, 1'500ns);
  EXPECT_EQ(back.lag, 250ms);
  EXPECT_EQ(back.inner.name, "x");
  EXPECT_EQ(back.at, Clock::time_point(42ns));
  EXPECT_FALSE(described::read<Timed>(json::parse(R"({"took_ns":1,"lag_s":null,"count":0,)"
                                                  R"("name":"","at_ns":0})"))
                   .lag.has_value());
  EXPECT_THAT([] { described::read<Timed>(json::parse(R"({"took_ns":1.5,"count":0})")); },
              ::testing::ThrowsMessage<described::ReadError>(
                  HasSubstr("key 'took_ns' must be a whole number")));
  EXPECT_THAT([] { described::read<Timed>(json::parse(R"({"took_ns":1,"lag_s":0})")); },
              ::testing::ThrowsMessage<described::ReadError>(HasSubstr("missing key 'count'")));
}

TEST(DescribedForms, AStructThatLeavesOutNoneWritesOnlyWhatItHas) {
  EXPECT_EQ(json::serialize(described::write(Sparse{.fds = 3})), R"({"fds":3})");
  EXPECT_EQ(json::serialize(described::write(Sparse{.fds = 3, .problem = "denied"})),
            R"({"fds":3,"problem":"denied"})");
  const auto back = described::read<Sparse>(json::parse(R"({"fds":3,"tcp":2})"));
  EXPECT_EQ(back.tcp, 2);
  EXPECT_EQ(back.problem, std::nullopt);
}

TEST(DescribedForms, AMapOfWholeNumbersIsKeyedByTheirDigitsInOrder) {
  const std::map<unsigned, std::uint64_t> statuses{{503, 1}, {404, 2}, {1000, 3}};
  const auto text = json::serialize(described::write(statuses));
  EXPECT_EQ(text, R"({"404":2,"503":1,"1000":3})");
  EXPECT_EQ((described::read<std::map<unsigned, std::uint64_t>>(json::parse(text))), statuses);
  using Statuses = std::map<unsigned, std::uint64_t>;
  EXPECT_THAT([] { described::read<Statuses>(json::parse(R"({"4x4":1})")); },
              ::testing::ThrowsMessage<described::ReadError>(
                  HasSubstr("'4x4': a key that is not a whole number")));
}

TEST(DescribedForms, APathIsItsText) {
  const std::filesystem::path path = "/usr/sbin/nginx";
  EXPECT_EQ(json::serialize(described::write(path)), R"("/usr/sbin/nginx")");
  EXPECT_EQ(described::read<std::filesystem::path>(json::string("/usr/sbin/nginx")), path);
}

}  // namespace
}  // namespace loiter::reports::forms_test
