// The described codec's forms for files older than it: a double kept a double (AsDouble), a
// struct that leaves out its empty optionals (kLeavesOutNone), a map keyed by whole numbers,
// a path as its text; each written as those files have it and read back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/describe/class.hpp>
#include <filesystem>
#include <map>
#include <optional>

#include "loiter/reports/described_json.hpp"

namespace loiter::reports::forms_test {

struct Kept {
  described::AsDouble rate;
  std::optional<described::AsDouble> lag;
  double count = 0;
};
BOOST_DESCRIBE_STRUCT(Kept, (), (rate, lag, count))

struct Sparse {
  int fds = 0;
  std::optional<int> tcp;
  std::optional<std::string> problem;
};
BOOST_DESCRIBE_STRUCT(Sparse, (), (fds, tcp, problem))

}  // namespace loiter::reports::forms_test

template <>
inline constexpr bool
    loiter::reports::described::kLeavesOutNone<loiter::reports::forms_test::Sparse> = true;

namespace loiter::reports::forms_test {
namespace {

namespace json = boost::json;
using ::testing::HasSubstr;

TEST(DescribedForms, AnAsDoubleStaysADoubleWhereADoubleBecomesAWholeNumber) {
  const Kept kept{.rate = {400}, .lag = described::AsDouble{0}, .count = 11};
  EXPECT_EQ(json::serialize(described::write(kept)), R"({"rate":4E2,"lag":0E0,"count":11})");
  const auto back = described::read<Kept>(json::parse(R"({"rate":400,"lag":null,"count":11})"));
  EXPECT_EQ(back.rate.value, 400.0);
  EXPECT_FALSE(back.lag.has_value());
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
