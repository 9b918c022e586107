// What to_report() writes for each kind of scenario (plain, load, churn, a split fleet, a
// soak, HTTP/3 with its UDP socket) is what
// reports/SCHEMA.md documents: the figure groups with their units and value names, and the
// plot ids; nothing more, nothing less.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "canned_results.hpp"
#include "loiter/suites/document/report.hpp"
#include "schema_doc.hpp"

namespace loiter::suites {
namespace {

namespace doc = reports::testing;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<reports::ScenarioReport> canned_reports() {
  return {to_report(testing::plain_result()), to_report(testing::load_result()),
          to_report(testing::churn_load_result()), to_report(testing::h2_churn_load_result()),
          to_report(testing::h3_churn_load_result()),
          to_report(testing::split_fleet_result()), to_report(testing::held_in_process_result()),
          to_report(testing::soak_result()), to_report(testing::h3_udp_result())};
}

std::map<std::string, doc::WrittenGroup> written_groups() {
  std::map<std::string, doc::WrittenGroup> written;
  for (const auto& report : canned_reports()) {
    for (const auto& group : report.figures) {
      written[group.name].units.insert(group.unit);
      for (const auto& [name, _] : group.values) written[group.name].values.insert(name);
    }
  }
  return written;
}

std::set<std::string> written_plots() {
  std::set<std::string> ids;
  for (const auto& report : canned_reports()) {
    for (const auto& plot : report.plots) ids.insert(plot.id);
  }
  return ids;
}

// Every figure group (unit, value names) written for a plain, a load, a split-fleet and a
// soak scenario is documented in SCHEMA.md, and every documented one is written.
TEST(Schema, FigureGroupsWrittenAreTheOnesDocumented) {
  const auto schema = doc::parse_schema(doc::schema_markdown());
  EXPECT_THAT(doc::group_differences(schema, written_groups()), IsEmpty());
}

// Every plot id written is documented, and every documented one is written.
TEST(Schema, PlotIdsWrittenAreTheOnesDocumented) {
  const auto schema = doc::parse_schema(doc::schema_markdown());
  EXPECT_THAT(doc::differences("plot id", schema.plots, written_plots()), IsEmpty());
}

// A value renamed in SCHEMA.md no longer matches what is written, both ways.
TEST(Schema, ARenamedFigureValueIsReportedBothWays) {
  auto markdown = doc::schema_markdown();
  const std::string value = "`median`";
  ASSERT_NE(markdown.find(value), std::string::npos);
  markdown.replace(markdown.find(value), value.size(), "`middle`");
  EXPECT_THAT(doc::group_differences(doc::parse_schema(markdown), written_groups()),
              ::testing::IsSupersetOf(
                  {HasSubstr("figure group 'closure': value 'median' is written but not"),
                   HasSubstr("figure group 'closure': value 'middle' is in SCHEMA.md but never")}));
}

}  // namespace
}  // namespace loiter::suites
