// A measured time as a small inline <svg>.
#include "survey_strip.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loiter/reports/html.hpp"
#include "loiter/reports/number_text.hpp"

namespace loiter::reports::svg {

namespace {

constexpr double kStripWidth = 220, kStripHeight = 30;
constexpr double kStripLeft = 8, kStripRight = 8, kStripAxisY = 12;

struct StripAxis {
  double high;
  double px(double seconds) const {
    return kStripLeft +
           std::clamp(seconds / high, 0.0, 1.0) * (kStripWidth - kStripLeft - kStripRight);
  }
};

std::string strip_frame(const StripAxis& axis) {
  return fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2:.1f}" y2="{1}" class="axis"/>)"
                     R"(<text x="{0}" y="{3}" class="tick" text-anchor="start">0</text>)"
                     R"(<text x="{2:.1f}" y="{3}" class="tick" text-anchor="end">{4} s</text>)",
                     kStripLeft, kStripAxisY, axis.px(axis.high), kStripHeight - 2,
                     plain_number(axis.high, 4));
}

std::string strip_dots(const StripAxis& axis, const Spread& spread) {
  return fmt::format(R"(<line x1="{0:.1f}" y1="{3}" x2="{2:.1f}" y2="{3}" class="range"/>)"
                     R"(<circle cx="{0:.1f}" cy="{3}" r="2.5" class="end"/>)"
                     R"(<circle cx="{2:.1f}" cy="{3}" r="2.5" class="end"/>)"
                     R"(<circle cx="{1:.1f}" cy="{3}" r="3.5" class="median"/>)",
                     axis.px(spread.min), axis.px(spread.median), axis.px(spread.max), kStripAxisY);
}

}  // namespace

std::string survey_strip(const SurveyMeasure& m, double max_wait, const std::string& id) {
  if (!m.not_measured.empty()) return {};
  const double longest = m.seconds ? m.seconds->max : 0;
  const StripAxis axis{.high = std::max({max_wait, longest, 1e-3})};
  const auto label = m.seconds ? fmt::format("min {:.3f} s, median {:.3f} s, max {:.3f} s",
                                             m.seconds->min, m.seconds->median, m.seconds->max)
                               : fmt::format("still open after {} s", plain_number(max_wait, 4));
  std::string out = fmt::format(
      R"(<svg id="{}" class="strip" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img" aria-label="{}">)",
      id, kStripWidth, kStripHeight, kStripWidth, kStripHeight, escape_html(label));
  out += fmt::format("<title>{}</title>", escape_html(label)) + strip_frame(axis);
  out += m.seconds ? strip_dots(axis, *m.seconds)
                   : fmt::format(R"(<rect x="{}" y="{}" width="{:.1f}" height="6" class="open"/>)",
                                 kStripLeft, kStripAxisY - 3, axis.px(axis.high) - kStripLeft);
  return out + "</svg>";
}

}  // namespace loiter::reports::svg
