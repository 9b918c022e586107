// report.json's plots: {"id", "title", "x_unit", "y_unit", "style", "series": [{"name",
// "points": [[x, y], ...], "fit": true (a fitted line only)}], "marks": [{"label", "axis",
// "from", "to"}]}.
#include "json_plot.hpp"

#include "json_access.hpp"

namespace loiter::reports::json_plot {

namespace {

using namespace json_access;

json::object series_to_json(const Series& series) {
  json::array points;
  points.reserve(series.points.size());
  for (const auto& [x, y] : series.points) points.push_back(json::array{number(x), number(y)});
  json::object out{{"name", series.name}, {"points", std::move(points)}};
  if (series.fit) out["fit"] = true;
  return out;
}

json::object mark_to_json(const Mark& mark) {
  return {{"label", mark.label},
          {"axis", mark.axis},
          {"from", number(mark.from)},
          {"to", number(mark.to)}};
}

Series series_from_json(const json::value& value, const std::string& where) {
  const auto& object = object_of(value, where);
  Series series{.name = text(object, "name", where), .points = {}};
  if (const auto* fit = object.if_contains("fit")) {  // absent: not a fitted line
    if (!fit->is_bool()) throw std::runtime_error(where + ": a series' fit must be true or false");
    series.fit = fit->get_bool();
  }
  for (const auto& point : array(object, "points", where)) {
    if (!point.is_array() || point.get_array().size() != 2) {
      throw std::runtime_error(where + ": a point must be [x, y]");
    }
    series.points.emplace_back(real(point.get_array()[0], where),
                               real(point.get_array()[1], where));
  }
  return series;
}

Mark mark_from_json(const json::value& value, const std::string& where) {
  const auto& object = object_of(value, where);
  Mark mark{.label = text(object, "label", where),
            .axis = text(object, "axis", where),
            .from = real(field(object, "from", where), where),
            .to = real(field(object, "to", where), where)};
  if (mark.axis != "x" && mark.axis != "y") {
    throw std::runtime_error(where + ": a mark's axis must be \"x\" or \"y\"");
  }
  return mark;
}

}  // namespace

boost::json::value to_json(const Plot& plot) {
  json::array series;
  for (const auto& s : plot.series) series.push_back(series_to_json(s));
  json::array marks;
  for (const auto& m : plot.marks) marks.push_back(mark_to_json(m));
  return json::object{{"id", plot.id},
                      {"title", plot.title},
                      {"x_unit", plot.x_unit},
                      {"y_unit", plot.y_unit},
                      {"style", to_string(plot.style)},
                      {"series", std::move(series)},
                      {"marks", std::move(marks)}};
}

Plot plot_from_json(const boost::json::value& value, std::string_view scenario) {
  std::string where = fmt::format("{}: plot", scenario);
  const auto& object = object_of(value, where);
  Plot plot{.id = text(object, "id", where)};
  where += " '" + plot.id + "'";
  plot.title = text(object, "title", where);
  plot.x_unit = text(object, "x_unit", where);
  plot.y_unit = text(object, "y_unit", where);
  const auto style = plot_style_from_string(text(object, "style", where));
  if (!style) throw std::runtime_error(where + ": unknown style");
  plot.style = *style;
  for (const auto& s : array(object, "series", where)) {
    plot.series.push_back(series_from_json(s, where));
  }
  for (const auto& m : array(object, "marks", where))
    plot.marks.push_back(mark_from_json(m, where));
  return plot;
}

}  // namespace loiter::reports::json_plot
