// report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched) with a
// summary table and, per scenario, its findings and plots. Drawn only from the run document.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

void render_html(const RunReport& report, std::ostream& out);

// The id of a plot's <svg> element: "plot-<scenario>-<plot>", lowercase letters, digits and
// '-' only.
std::string svg_id(std::string_view scenario, std::string_view plot);

// Text made safe for HTML element content and attribute values (escape_markup, line breaks
// kept).
std::string escape_html(std::string_view text);

}  // namespace loiter::reports
