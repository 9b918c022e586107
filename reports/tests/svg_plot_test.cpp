// svg_plot's right axis: a second plot's series drawn against a y axis of their own, its
// ticks and unit on the right, the x axis shared; without one, the plot is as it was.
#include "svg_plot.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace loiter::reports {
// Named, not anonymous: the unity batch shares one anonymous namespace among the test files.
namespace svg_plot_test {

using ::testing::HasSubstr;
using ::testing::Not;

Plot left_plot() {
  return {.id = "left",
          .title = "share",
          .x_unit = "held",
          .y_unit = "share (%)",
          .series = {{.name = "share", .points = {{0, 50}, {1, 100}}}}};
}

Plot right_plot() {
  return {.id = "right",
          .y_unit = "reopens/s",
          .series = {{.name = "reopens", .points = {{0, 500}, {1, 1000}}}}};
}

// Each series on its own scale: the left's 100 and the right's 1000 both at the frame's top
// (y 26), their halves both at its middle (y 123); x shared, the frame narrower by the axis.
TEST(SvgPlot, ARightAxisScalesItsSeriesApart) {
  const auto svg = svg::render_plot(left_plot(), right_plot(), "plot-x");
  EXPECT_THAT(svg, HasSubstr("<path d=\"M56.0,123.0L514.0,26.0\" fill=\"none\""));
  EXPECT_THAT(svg, HasSubstr("<path d=\"M56.0,123.0L514.0,26.0\" fill=\"none\" stroke=\"#d62728\""
                             " stroke-width=\"1.6\" stroke-dasharray=\"2 2\" class=\"right\"/>"));
  EXPECT_THAT(svg, HasSubstr("class=\"yr\">1000</text>"));
  EXPECT_THAT(svg, HasSubstr("class=\"yt\">100</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("class=\"yt\">1000</text>")));
  EXPECT_THAT(svg, HasSubstr("class=\"yl\">reopens/s</text>"));
  EXPECT_THAT(svg, HasSubstr(">reopens (right)</text>"));
  EXPECT_THAT(svg, HasSubstr(">share</text>"));
  EXPECT_THAT(svg, HasSubstr("stroke=\"#d62728\" stroke-width=\"1.6\" stroke-dasharray=\"2 2\"/>"
                             "<text"));  // the legend's dotted swatch
}

// The x axis fits both plots' points: a right series further out widens it.
TEST(SvgPlot, TheSharedXAxisFitsBothPlots) {
  auto right = right_plot();
  right.series[0].points.emplace_back(4, 750);
  const auto svg = svg::render_plot(left_plot(), right, "plot-x");
  EXPECT_THAT(svg, HasSubstr("class=\"xt\">4</text>"));
}

// Without a right plot (or one without series): no right axis, the one-axis drawing.
TEST(SvgPlot, WithoutARightPlotItIsTheOneAxisPlot) {
  const auto one = svg::render_plot(left_plot(), "plot-x");
  EXPECT_EQ(one, svg::render_plot(left_plot(), Plot{}, "plot-x"));
  EXPECT_THAT(one, Not(HasSubstr("class=\"yr\"")));
  EXPECT_THAT(one, Not(HasSubstr("(right)")));
  EXPECT_THAT(one, HasSubstr("<path d=\"M56.0,123.0L570.0,26.0\""));
}

}  // namespace svg_plot_test
}  // namespace loiter::reports
