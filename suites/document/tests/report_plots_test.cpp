// The plots of a report are plain series derived from the observation: the closure strip
// against the deadline window, open connections, FDs against the baseline; load rows become
// per-second plots and the latency figures compare() gates on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/report_load.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
namespace ends = clients::ends;

const reports::Plot& plot(const reports::ScenarioReport& report, std::string_view id) {
  const auto it = std::ranges::find(report.plots, id, &reports::Plot::id);
  if (it == report.plots.end()) throw std::runtime_error("no plot " + std::string(id));
  return *it;
}

ScenarioResult closed_at(std::initializer_list<std::chrono::milliseconds> endings) {
  ScenarioResult result{.id = "silent"};
  const auto t0 = clients::Clock::now();
  int i = 0;
  for (auto at : endings) {
    clients::ConnectionRecord record;
    record.kind = "silent";
    record.connect_start = t0 + 100ms * i++;
    record.connect_took = 1ms;
    record.ending = clients::Ending::close;
    record.ended_at = at;
    result.observation.connections.push_back(record);
  }
  result.observation.fds = {.baseline = 5, .peak = 8, .after = 5, .recovered = true};
  result.observation.timeline = {
      {t0, {.processes = 1, .fds = 5, .rss_kib = 2048, .threads = 2}},
      {t0 + 500ms, {.processes = 1, .fds = 8, .rss_kib = 4096, .threads = 2}}};
  result.expectations.closure = ClosureExpectation{
      .since = Since::connect, .deadline = 1s, .slack = 250ms, .endings = {ends::closed}};
  return result;
}

TEST(ReportPlots, ClosureStripHasADotPerConnectionAndTheDeadlineWindow) {
  const auto report = to_report(closed_at({1000ms, 1100ms, 900ms}));
  const auto& strip = plot(report, "closure");
  EXPECT_EQ(strip.style, reports::PlotStyle::dots);
  ASSERT_EQ(strip.series.size(), 1u);
  EXPECT_EQ(strip.series[0].name, "close");
  EXPECT_EQ(strip.series[0].points.size(), 3u);
  EXPECT_DOUBLE_EQ(strip.series[0].points[1].first, 1.1);
  EXPECT_THAT(strip.marks,
              ::testing::Contains(reports::Mark{
                  .label = "deadline ± slack", .axis = "x", .from = 0.75, .to = 1.25}));
}

TEST(ReportPlots, OpenConnectionsRiseAndFallByKindAndEnding) {
  const auto report = to_report(closed_at({1000ms, 1000ms}));
  const auto& open = plot(report, "open");
  ASSERT_EQ(open.series.size(), 1u);
  EXPECT_EQ(open.series[0].name, "silent → close");
  double peak = 0;
  for (const auto& [x, y] : open.series[0].points) peak = std::max(peak, y);
  EXPECT_EQ(peak, 2);
  EXPECT_EQ(open.series[0].points.back().second, 0);
}

TEST(ReportPlots, FdTimelineCarriesTheBaselineAndRssIsAFigure) {
  const auto report = to_report(closed_at({1000ms}));
  const auto& fds = plot(report, "fds");
  EXPECT_EQ(fds.series[0].points.size(), 2u);
  EXPECT_THAT(fds.marks, ::testing::Contains(
                             reports::Mark{.label = "baseline", .axis = "y", .from = 5, .to = 5}));
  EXPECT_EQ(reports::figure(report, "RSS", "peak"), 4096);
  EXPECT_TRUE(std::ranges::none_of(report.plots, [](const auto& p) { return p.id == "tcp"; }));
}

// The shape of clients::LoadResult (LOAD_API.md), enough for the report.
struct FakeHistogram {
  std::uint64_t count() const { return 10; }
  clients::Duration percentile(double p) const { return p >= 99 ? 7ms : 2ms; }
  clients::Duration max() const { return 9ms; }
};
struct FakeSecond {
  std::uint64_t requested = 100, dispatched = 100, succeeded = 99, failed = 1;
  clients::Duration p50 = 2ms, p99 = 7ms, max = 9ms;
};
struct FakeLoad {
  std::uint64_t requested = 200, dispatched = 200, succeeded = 198;
  FakeHistogram from_intended;
  clients::Clock::time_point started;
  std::vector<FakeSecond> seconds{2};
};
struct FakeLoadObservation {
  FakeLoad result;
};
struct ObservationWithLoad {
  std::optional<FakeLoadObservation> load;
};

TEST(ReportLoad, PerSecondRowsBecomePlots) {
  const auto t0 = clients::Clock::now();
  ObservationWithLoad observation{.load = FakeLoadObservation{.result = {.started = t0 + 1s}}};
  reports::ScenarioReport report;
  add_load_report(report, observation, t0);
  const auto& rates = plot(report, "load-rate");
  ASSERT_EQ(rates.series.size(), 4u);
  EXPECT_EQ(rates.series[2].name, "succeeded");
  EXPECT_EQ(rates.series[2].points, (std::vector<std::pair<double, double>>{{1.5, 99}, {2.5, 99}}));
  EXPECT_EQ(plot(report, "load-latency").series[1].points[0].second, 7.0);
}

TEST(ReportLoad, AnObservationWithoutLoadAddsNothing) {
  reports::ScenarioReport report;
  add_load_report(report, Observation{}, clients::Clock::now());
  EXPECT_TRUE(report.plots.empty());
  EXPECT_TRUE(report.figures.empty());
}

}  // namespace
}  // namespace loiter::suites
