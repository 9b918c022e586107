// report.json round-trips, matches its golden text, writes missing figures as null, and
// names what is malformed.
#include "loiter/reports/json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "golden.hpp"
#include "sample_report.hpp"

namespace loiter::reports {
namespace {

TEST(Json, RoundTripsARunReportToAnEqualOne) {
  const auto report = testing::sample_report();
  const auto back = run_report_from_json(boost::json::parse(run_report_text(report)));
  EXPECT_TRUE(back == report);
  ASSERT_EQ(back.scenarios.size(), 4u);
  EXPECT_EQ(back.scenarios[3].status, Status::info);
  EXPECT_EQ(back.scenarios[1].status, Status::fail);
  EXPECT_FALSE(back.scenarios[1].figures[0].values[0].second.has_value());
  EXPECT_EQ(back.scenarios[0].plots.at(0).marks.at(1).to, 1.1);
}

TEST(Json, ReportTextMatchesGolden) {
  const auto text = run_report_text(testing::sample_report());
  EXPECT_EQ(text, testing::golden_or_update("report.json", text));
}

TEST(Json, WritesUnmeasuredFiguresAsNull) {
  const auto text = boost::json::serialize(to_json(testing::sample_report()));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("name":"min","value":null)"));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("schema":"loiter-run/2")"));
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

TEST(Json, NamesAMalformedPlot) {
  auto document = to_json(testing::sample_report());
  auto& plot = document.at("scenarios").at(0).at("plots").at(0).as_object();
  plot["style"] = "pie";
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr("plot 'fds'")));
}

// A target that was not run keeps why, with no scenarios; a document written before the
// target's version and description were kept still reads, with them empty.
TEST(Json, KeepsWhyATargetWasNotRunAndReadsDocumentsWithoutItsVersion) {
  const RunReport skipped{.loiter_version = "0.1.0",
                          .target = "apache",
                          .target_version = "not installed",
                          .not_run = "apache2 is not installed",
                          .started_at = "2026-12-01T02:00:00Z"};
  EXPECT_TRUE(run_report_from_json(to_json(skipped)) == skipped);
  auto older = to_json(testing::sample_report());
  older.as_object().erase("target_version");
  older.as_object().erase("target_description");
  const auto back = run_report_from_json(older);
  EXPECT_EQ(back.target_version, "");
  EXPECT_EQ(back.target_description, "");
  EXPECT_THAT(boost::json::serialize(to_json(testing::sample_report())),
              ::testing::Not(::testing::HasSubstr("not_run")));
}

}  // namespace
}  // namespace loiter::reports
