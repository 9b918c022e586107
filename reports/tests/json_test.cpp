// report.json round-trips, writes missing figures as null, and names what is malformed.
#include "loiter/reports/json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "sample_report.hpp"

namespace loiter::reports {
namespace {

TEST(Json, RoundTripsARunReport) {
  const auto report = testing::sample_report();
  const auto text = boost::json::serialize(to_json(report));
  const auto back = run_report_from_json(boost::json::parse(text));
  EXPECT_EQ(boost::json::serialize(to_json(back)), text);
  ASSERT_EQ(back.scenarios.size(), 3u);
  EXPECT_EQ(back.scenarios[1].status, Status::fail);
  EXPECT_FALSE(back.scenarios[1].figures[0].values[0].second.has_value());
}

TEST(Json, WritesUnmeasuredFiguresAsNull) {
  const auto text = boost::json::serialize(to_json(testing::sample_report()));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("name":"min","value":null)"));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("schema":"loiter-run/1")"));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("name":"peak","value":106})"));
}

TEST(Json, RejectsAnotherSchemaByName) {
  auto document = to_json(testing::sample_report());
  document.as_object()["schema"] = "loiter-run/99";
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr("loiter-run/99")));
}

TEST(Json, NamesAMissingKey) {
  auto document = to_json(testing::sample_report());
  document.as_object().erase("target");
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr("'target'")));
}

}  // namespace
}  // namespace loiter::reports
