// report.json's plots as the described codec (described_json.hpp) writes and reads them:
// {"id", "title", "x_unit", "y_unit", "style", "series": [{"name", "points": [[x, y], ...],
// "fit": true (a fitted line only)}], "marks": [{"label", "axis", "from", "to"}]}. Private to
// reports/.
#pragma once

#include <boost/describe/class.hpp>
#include <tuple>
#include <utility>

#include "loiter/reports/described_json.hpp"
#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

BOOST_DESCRIBE_STRUCT(Series, (), (name, points, fit))
BOOST_DESCRIBE_STRUCT(Mark, (), (label, axis, from, to))
BOOST_DESCRIBE_STRUCT(Plot, (), (id, title, x_unit, y_unit, style, series, marks))

// A point of a series, as the document holds it: [x, y].
struct PlotPoint {
  double x = 0;
  double y = 0;
};
BOOST_DESCRIBE_STRUCT(PlotPoint, (), (x, y))

namespace plot_words {
inline constexpr PlotStyle kStyles[] = {PlotStyle::line, PlotStyle::step, PlotStyle::dots};
}  // namespace plot_words

}  // namespace loiter::reports

namespace loiter::reports::described {

// Only a fitted line carries "fit"; a series without it (any older document) is not one.
template <>
inline constexpr auto kWhenSet<Series> = std::tuple(&Series::fit);

template <>
inline constexpr bool kAsArray<PlotPoint> = true;

template <>
struct Codec<std::pair<double, double>> {
  static json::value write(const std::pair<double, double>& point) {
    return described::write(PlotPoint{.x = point.first, .y = point.second});
  }
  static std::pair<double, double> read(const json::value& json) {
    const auto point = described::read<PlotPoint>(json);
    return {point.x, point.y};
  }
};

template <>
struct Codec<PlotStyle> : EnumWords<PlotStyle, plot_words::kStyles> {};

// A mark lies across the x axis or the y axis, nothing else.
template <>
struct Amend<Mark> {
  static void read(const json::object&, const Mark& mark) {
    if (mark.axis != "x" && mark.axis != "y") {
      throw ReadError("", "key 'axis' is '" + mark.axis + "', not 'x' or 'y'");
    }
  }
};

}  // namespace loiter::reports::described
