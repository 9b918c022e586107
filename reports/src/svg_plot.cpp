// One Plot as an inline <svg>, drawn from the plot's plain series and marks only.
#include "svg_plot.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "loiter/reports/html.hpp"
#include "loiter/reports/number_text.hpp"
#include "svg_scale.hpp"

namespace loiter::reports::svg {

namespace {

constexpr double kWidth = 760, kHeight = 260;
constexpr double kLeft = 56, kRight = 190, kTop = 26, kBottom = 40;
constexpr double kRightAxis = 56;  // a right axis's ticks and label, between frame and legend
constexpr std::array<std::string_view, 10> kPalette{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                                    "#bcbd22", "#17becf"};
constexpr std::array<std::string_view, 4> kMarkColours{"#555", "#b8860b", "#8b0000", "#006400"};

struct Frame {
  Range x, y;
  double width = kWidth - kLeft - kRight;  // less kRightAxis with a right axis
  double height = kHeight - kTop - kBottom;
  double px(double v) const { return kLeft + (v - x.low) / x.span() * width; }
  double py(double v) const { return kTop + height - (v - y.low) / y.span() * height; }
};

std::string axes(const Frame& frame, const std::vector<double>& xs, const std::vector<double>& ys,
                 const Plot& plot) {
  std::string out;
  for (double v : ys) {
    out += fmt::format(
        R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="grid"/><text x="{:.1f}" y="{:.1f}" class="yt">{}</text>)",
        kLeft, frame.py(v), kLeft + frame.width, frame.py(v), kLeft - 4, frame.py(v) + 4,
        plain_number(v));
  }
  for (double v : xs) {
    out += fmt::format(
        R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="grid"/><text x="{:.1f}" y="{:.1f}" class="xt">{}</text>)",
        frame.px(v), kTop, frame.px(v), kTop + frame.height, frame.px(v), kTop + frame.height + 14,
        plain_number(v));
  }
  out += fmt::format(R"(<rect x="{}" y="{}" width="{:.1f}" height="{:.1f}" class="frame"/>)", kLeft,
                     kTop, frame.width, frame.height);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="xl">{}</text>)", kLeft + frame.width / 2,
                     kHeight - 6, escape_html(plot.x_unit));
  const double middle = kTop + frame.height / 2;
  out += fmt::format(
      R"svg(<text x="14" y="{0:.1f}" transform="rotate(-90 14 {0:.1f})" class="yl">{1}</text>)svg",
      middle, escape_html(plot.y_unit));
  return out;
}

// The right axis: `frame` is the right series' (its y), ticks and unit beside the frame.
std::string right_axis(const Frame& frame, const std::vector<double>& ys, const Plot& right) {
  std::string out;
  const double edge = kLeft + frame.width;
  for (double v : ys) {
    out += fmt::format(
        R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" class="frame"/><text x="{3:.1f}" y="{4:.1f}" class="yr">{5}</text>)",
        edge, frame.py(v), edge + 4, edge + 6, frame.py(v) + 4, plain_number(v));
  }
  const double x = edge + kRightAxis - 8, middle = kTop + frame.height / 2;
  out += fmt::format(
      R"svg(<text x="{0:.1f}" y="{1:.1f}" transform="rotate(90 {0:.1f} {1:.1f})" class="yl">{2}</text>)svg",
      x, middle, escape_html(right.y_unit));
  return out;
}

std::string marks(const Frame& frame, const Plot& plot) {
  std::string out;
  std::size_t i = 0;
  for (const auto& mark : plot.marks) {
    const auto colour = kMarkColours[i++ % kMarkColours.size()];
    const bool vertical = mark.axis == "x";
    const double a = vertical ? frame.px(mark.from) : frame.py(mark.from);
    const double b = vertical ? frame.px(mark.to) : frame.py(mark.to);
    const double low = std::min(a, b), size = std::max(a, b) - low;
    if (mark.from != mark.to) {
      out += vertical ? fmt::format(R"(<rect x="{:.1f}" y="{}" width="{:.1f}" height="{:.1f}")",
                                    low, kTop, size, frame.height)
                      : fmt::format(R"(<rect x="{}" y="{:.1f}" width="{:.1f}" height="{:.1f}")",
                                    kLeft, low, frame.width, size);
      out += fmt::format(R"( fill="{}" fill-opacity="0.15"/>)", colour);
    } else {
      out += vertical ? fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2:.1f}")", a,
                                    kTop, kTop + frame.height)
                      : fmt::format(R"(<line x1="{1}" y1="{0:.1f}" x2="{2:.1f}" y2="{0:.1f}")", a,
                                    kLeft, kLeft + frame.width);
      out += fmt::format(R"( stroke="{}" stroke-dasharray="5 3"/>)", colour);
    }
    // A vertical mark near the right edge is labelled to its left: to its right the label
    // would run into the legend.
    const bool leftward = vertical && low > kLeft + 0.75 * frame.width;
    const double tx = leftward ? low - 2 : vertical ? low + 2 : kLeft + 4;
    const double ty = vertical ? kTop + 10 + 11.0 * static_cast<double>(i - 1) : low - 3;
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="mark" fill="{}"{}>{}</text>)", tx, ty,
                       colour, leftward ? R"( text-anchor="end")" : "", escape_html(mark.label));
  }
  return out;
}

// A right axis's series (`right`) is dotted, so that it is told from the left's by more
// than its colour.
std::string series_shape(const Frame& frame, const Series& series, PlotStyle style,
                         std::string_view colour, bool right = false) {
  if (series.points.empty()) return {};
  std::string out;
  if (series.fit) style = PlotStyle::line;
  // A line of one point draws nothing: a dot instead (a ladder's single saturation step).
  if (style == PlotStyle::dots || series.points.size() == 1) {
    out = fmt::format(R"(<g fill="{}" fill-opacity="0.7">)", colour);
    for (const auto& [x, y] : series.points) {
      out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.5"/>)", frame.px(x), frame.py(y));
    }
    return out + "</g>";
  }
  std::string d = fmt::format("M{:.1f},{:.1f}", frame.px(series.points[0].first),
                              frame.py(series.points[0].second));
  for (std::size_t i = 1; i < series.points.size(); ++i) {
    const auto& [x, y] = series.points[i];
    d += style == PlotStyle::step ? fmt::format("H{:.1f}V{:.1f}", frame.px(x), frame.py(y))
                                  : fmt::format("L{:.1f},{:.1f}", frame.px(x), frame.py(y));
  }
  return fmt::format(R"(<path d="{}" fill="none" stroke="{}" stroke-width="1.6"{}/>)", d, colour,
                     series.fit ? R"( stroke-dasharray="6 3" class="fit")"
                     : right    ? R"( stroke-dasharray="2 2" class="right")"
                                : "");
}

// Each series' colour from the palette, in order; a fitted line takes the colour of the series
// just before it (the line it fits), and uses none of its own.
std::vector<std::string_view> colours(const Plot& plot) {
  std::vector<std::string_view> out;
  std::size_t next = 0;
  for (const auto& series : plot.series) {
    out.push_back(series.fit && !out.empty() ? out.back() : kPalette[next++ % kPalette.size()]);
  }
  return out;
}

// `plot` holds the left series, then the right axis's (from `first_right` on): theirs say so.
std::string legend(const Plot& plot, double left_edge, std::size_t first_right) {
  std::string out;
  double y = kTop + 6;
  const auto colour_of = colours(plot);
  for (std::size_t i = 0; i < plot.series.size(); ++i, y += 16) {
    const auto colour = colour_of[i];
    const double swatch_x = left_edge + 12;
    // A fitted line, or a right axis's series: a dashed or dotted stroke, as drawn; not a box.
    const bool right = i >= first_right;
    out +=
        plot.series[i].fit || right
            ? fmt::format(
                  R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" stroke="{3}" stroke-width="1.6" stroke-dasharray="{4}"/>)",
                  swatch_x, y + 5, swatch_x + 10, colour, right ? "2 2" : "4 2")
            : fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="10" height="10" fill="{}"/>)",
                          swatch_x, y, colour);
    out += fmt::format(
        R"(<text x="{:.1f}" y="{:.1f}" class="legend">{}{}{}</text>)", left_edge + 26, y + 9,
        escape_html(plot.series[i].name),
        // Dots are connections: say how many.
        plot.style == PlotStyle::dots ? fmt::format(" ({})", plot.series[i].points.size()) : "",
        right ? " (right)" : "");
  }
  return out;
}

}  // namespace

std::string render_plot(const Plot& plot, const std::string& id) {
  return render_plot(plot, Plot{}, id);
}

std::string render_plot(const Plot& plot, const Plot& right, const std::string& id) {
  // Both share the x axis: every point and x mark of either fits it; each has its own y.
  Plot both = plot;
  both.series.insert(both.series.end(), right.series.begin(), right.series.end());
  const bool two_axes = !right.series.empty();
  auto x = ranges_of(both).x;
  auto y = ranges_of(plot).y;
  auto right_y = ranges_of(right).y;
  const auto xs = ticks(x, 8);
  const auto ys = ticks(y, 5);
  const auto right_ys = ticks(right_y, 5);
  Frame frame{.x = x, .y = y};
  if (two_axes) frame.width -= kRightAxis;
  std::string out = fmt::format(
      R"(<svg id="{}" class="plot" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img" aria-label="{}">)",
      id, kWidth, kHeight, kWidth, kHeight, escape_html(plot.title));
  out +=
      fmt::format(R"(<text x="{}" y="16" class="title">{}</text>)", kLeft, escape_html(plot.title));
  out += axes(frame, xs, ys, plot) + marks(frame, plot);
  const Frame right_frame{.x = x, .y = right_y, .width = frame.width};
  if (two_axes) out += right_axis(right_frame, right_ys, right);
  const auto colour_of = colours(both);
  for (std::size_t i = 0; i < both.series.size(); ++i) {
    const bool on_right = i >= plot.series.size();
    out += series_shape(on_right ? right_frame : frame, both.series[i], plot.style, colour_of[i],
                        on_right);
  }
  bool empty = true;
  for (const auto& s : both.series) empty = empty && s.points.empty();
  if (empty) {
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="empty">no data</text>)",
                       kLeft + frame.width / 2, kTop + frame.height / 2);
  }
  const double legend_edge = kLeft + frame.width + (two_axes ? kRightAxis : 0);
  return out + legend(both, legend_edge, plot.series.size()) + "</svg>";
}

}  // namespace loiter::reports::svg
