// A soak's report: its timeline plots draw the server's FDs by type, its connections and RSS
// with the second half's fitted slopes (dashed, their values in the legend), its table gives
// descriptors by type at start / peak / end, threads and connections, the p99 of both windows;
// all of it from report.json alone, and fd_types kept in the run directory's timeline.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "canned_results.hpp"
#include "loiter/reports/html.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/suites/document/raw_json.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using ::testing::DoubleNear;
using ::testing::HasSubstr;
using ::testing::Pair;

const reports::Plot& soak_plot(const reports::ScenarioReport& report, std::string_view id) {
  const auto it = std::ranges::find(report.plots, id, &reports::Plot::id);
  if (it == report.plots.end()) throw std::runtime_error("no plot " + std::string(id));
  return *it;
}

const reports::Series& soak_series(const reports::Plot& plot, std::string_view name) {
  const auto it = std::ranges::find(plot.series, name, &reports::Series::name);
  if (it == plot.series.end()) throw std::runtime_error("no series " + std::string(name));
  return *it;
}

std::optional<double> soak_value(const reports::ScenarioReport& report, std::string_view group,
                            std::string_view name) {
  return reports::figure(report, group, name);
}

std::string soak_html(const reports::ScenarioReport& scenario) {
  std::ostringstream html;
  reports::render_html({.target = "reference", .scenarios = {scenario}}, html);
  return html.str();
}

// The FD plot has one step line per descriptor type present and the connections, then a
// dashed fit per line over [the second half's start, the traffic's end].
TEST(ReportSoak, FdPlotHasALinePerTypeAndTheFittedSlopes) {
  const auto report = to_report(testing::soak_result());
  const auto& fds = soak_plot(report, "soak-fds");
  EXPECT_EQ(fds.style, reports::PlotStyle::step);
  for (const char* name : {"socket FDs", "pipe FDs", "file FDs", "anon_inode FDs", "connections"})
    EXPECT_EQ(soak_series(fds, name).points.size(), 11u) << name;
  EXPECT_EQ(std::ranges::count_if(fds.series, [](const auto& s) { return !s.fit; }), 5);
  const auto& socket_fit = soak_series(fds, "socket FDs +60.0/min");
  EXPECT_TRUE(socket_fit.fit);
  ASSERT_EQ(socket_fit.points.size(), 2u);
  EXPECT_THAT(socket_fit.points[0], Pair(DoubleNear(5.0, 1e-9), DoubleNear(6.0, 1e-6)));
  EXPECT_THAT(socket_fit.points[1], Pair(DoubleNear(9.0, 1e-9), DoubleNear(10.0, 1e-6)));
  EXPECT_TRUE(soak_series(fds, "pipe FDs +0.0/min").fit);
  EXPECT_TRUE(soak_series(fds, "connections +60.0/min").fit);
  EXPECT_THAT(fds.title, HasSubstr("FDs +60.0/min"));
  EXPECT_THAT(fds.marks, ::testing::Contains(reports::Mark{
                             .label = "traffic", .axis = "x", .from = 1.0, .to = 9.0}));
}

// RSS in MiB with its fitted slope per minute in the legend and the title.
TEST(ReportSoak, RssPlotCarriesItsSlopeInMibPerMinute) {
  const auto report = to_report(testing::soak_result());
  const auto& rss = soak_plot(report, "soak-rss");
  EXPECT_EQ(soak_series(rss, "RSS MiB").points.at(10).second, 12.0);
  EXPECT_TRUE(soak_series(rss, "RSS +60.0 MiB/min").fit);
  EXPECT_THAT(rss.title, HasSubstr("RSS +60.0 MiB/min"));
}

// Where the probe counted no types, the plot has the FDs in all, and its slope.
TEST(ReportSoak, WithoutFdTypesThePlotHasTheTotal) {
  auto result = testing::soak_result();
  for (auto& s : result.observation.timeline) s.sample.fd_types.reset();
  const auto report = to_report(result);
  const auto& fds = soak_plot(report, "soak-fds");
  EXPECT_EQ(soak_series(fds, "FDs").points.size(), 11u);
  EXPECT_TRUE(soak_series(fds, "FDs +60.0/min").fit);
  EXPECT_THROW(soak_series(fds, "socket FDs"), std::runtime_error);
}

// The SVG holds the slope text and one line per FD type, the fits dashed.
TEST(ReportSoak, TheSvgHoldsTheSlopesAndALinePerFdType) {
  const auto html = soak_html(to_report(testing::soak_result()));
  EXPECT_THAT(html, HasSubstr(R"(<svg id="plot-soak-soak-fds")"));
  const auto svg = html.substr(html.find(R"(<svg id="plot-soak-soak-fds")"));
  const auto fds_svg = svg.substr(0, svg.find("</svg>"));
  for (const char* text :
       {">socket FDs</text>", ">pipe FDs</text>", ">file FDs</text>", ">anon_inode FDs</text>",
        ">socket FDs +60.0/min</text>", ">connections +60.0/min</text>"}) {
    EXPECT_THAT(fds_svg, HasSubstr(text));
  }
  std::size_t paths = 0, dashed = 0;
  for (auto at = fds_svg.find("<path"); at != std::string::npos; at = fds_svg.find("<path", at + 1))
    ++paths;
  for (auto at = fds_svg.find(R"(class="fit")"); at != std::string::npos;
       at = fds_svg.find(R"(class="fit")", at + 1))
    ++dashed;
  EXPECT_EQ(paths, 10u);  // 4 types and the connections, and a fit for each
  EXPECT_EQ(dashed, 5u);
  EXPECT_THAT(html, HasSubstr(">RSS +60.0 MiB/min</text>"));
}

// The table: descriptors by type at start, peak and end, threads and connections at rest,
// the p99 of each window with its request count (the load's edge groups), and the slopes
// per minute.
TEST(ReportSoak, TheTableHasTypesAtStartPeakEndAndBothWindows) {
  const auto report = to_report(testing::soak_result());
  EXPECT_EQ(soak_value(report, "socket FDs", "start"), 2.0);
  EXPECT_EQ(soak_value(report, "socket FDs", "peak"), 10.0);
  EXPECT_EQ(soak_value(report, "socket FDs", "end"), 10.0);
  EXPECT_EQ(soak_value(report, "anon_inode FDs", "end"), 3.0);
  EXPECT_FALSE(soak_value(report, "other FDs", "end").has_value());  // never present: no group
  EXPECT_EQ(soak_value(report, "at rest", "threads start"), 2.0);
  EXPECT_EQ(soak_value(report, "at rest", "connections start"), 0.0);
  EXPECT_EQ(soak_value(report, "at rest", "connections end"), 8.0);
  EXPECT_THAT(*soak_value(report, "edge latency", "first p99"), DoubleNear(1.0, 0.1));
  EXPECT_THAT(*soak_value(report, "edge latency", "last p99"), DoubleNear(3.0, 0.3));
  EXPECT_EQ(soak_value(report, "edge answers", "first"), 20.0);
  EXPECT_EQ(soak_value(report, "edge answers", "last"), 10.0);
  EXPECT_THAT(*soak_value(report, "drift", "FDs"), DoubleNear(60.0, 1e-6));
  EXPECT_THAT(*soak_value(report, "drift", "RSS MiB"), DoubleNear(60.0, 1e-6));
}

// A scenario without `soak` gets neither the plots nor the table.
TEST(ReportSoak, OnlyASoakGetsThem) {
  auto result = testing::soak_result();
  result.expectations.soak.reset();
  const auto report = to_report(result);
  EXPECT_FALSE(std::ranges::any_of(report.plots, [](const auto& p) { return p.id == "soak-fds"; }));
  EXPECT_FALSE(soak_value(report, "drift", "FDs").has_value());
}

// The timeline written to the run directory keeps each sample's fd_types, read back equal;
// report.json read back renders the same soak plot (`loiter report DIR` needs nothing else).
TEST(ReportSoak, TheRunDirectoryKeepsFdTypesAndThePlotRendersAgain) {
  const auto root = fs::temp_directory_path() / ("loiter-soak-test-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const auto result = testing::soak_result();
  const auto report = to_report(result);
  {
    RunDirectory run(root, "reference");
    run.add_scenario(result);
    run.write_report({.target = "reference", .scenarios = {report}});
    std::ifstream timeline(run.path() / "timeline/soak.json");
    std::stringstream text;
    text << timeline.rdbuf();
    const auto samples = boost::json::parse(text.str()).at("samples").as_array();
    ASSERT_EQ(samples.size(), result.observation.timeline.size());
    for (std::size_t i = 0; i < samples.size(); ++i)
      EXPECT_EQ(fd_types_from_json(samples[i]), result.observation.timeline[i].sample.fd_types);
    EXPECT_THAT(text.str(), HasSubstr(R"("fd_types")"));
    const auto back = reports::read_run_report(run.path());  // as `loiter report DIR` reads it
    EXPECT_EQ(soak_plot(back.scenarios.at(0), "soak-fds"), soak_plot(report, "soak-fds"));
  }
  fs::remove_all(root);
}

// A sample without fd_types reads back as none; a malformed one is refused by name.
TEST(ReportSoak, FdTypesReadBackOnlyWhenWritten) {
  EXPECT_EQ(fd_types_from_json(boost::json::parse(R"({"t": 0, "fds": 3})")), std::nullopt);
  EXPECT_THAT([] { fd_types_from_json(boost::json::parse(R"({"fd_types": {"pipe": "x"}})")); },
              ::testing::ThrowsMessage<std::runtime_error>(HasSubstr("fd_types.pipe")));
}

}  // namespace
}  // namespace loiter::suites
