// survey.html: the exposures first, then the table of measures with a strip per measured
// time. Drawn from the survey document only.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "loiter/reports/html.hpp"
#include "loiter/reports/number_text.hpp"
#include "loiter/reports/survey_render.hpp"
#include "survey_strip.hpp"
#include "survey_words.hpp"

namespace loiter::reports {

namespace {

namespace words = survey_words;

constexpr std::string_view kSurveyStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
table{border-collapse:collapse}td,th{padding:3px 10px;text-align:left;vertical-align:top}
tr.measure td{border-top:1px solid #ddd}td.nowrap{white-space:nowrap}code{font-size:12px;color:#555}
tr.exposed td{background:#fff4e5}.exposure{color:#b45309;font-weight:600}
.facts,.note{color:#555;font-size:13px}.not-measured{color:#777;font-style:italic}
section#exposures{border-left:4px solid #b45309;padding:2px 14px;margin-bottom:20px;background:#fffaf3}
svg.strip{display:block}.axis{stroke:#999}.tick{font-size:10px;fill:#777}
.range{stroke:#1f77b4;stroke-width:2}.end{fill:#1f77b4}.median{fill:#0b3d91}
.open{fill:#b45309;fill-opacity:0.35}.problems{color:#c62828}.interrupted{color:#9a6700}
)";

std::string measure_anchor(const SurveyMeasure& m) { return "m-" + escape_html(m.id); }

void exposures_section(const Survey& survey, std::ostream& out) {
  const auto exposed =
      std::ranges::count_if(survey.measures, [](const auto& m) { return !m.exposure.empty(); });
  if (exposed == 0) return;
  fmt::print(out, "<section id=\"exposures\"><h2>What this server lets a client hold</h2><ul>\n");
  for (const auto& m : survey.measures) {
    if (m.exposure.empty()) continue;
    fmt::print(out, "<li><a href=\"#{}\">{}</a>: <span class=\"exposure\">{}</span></li>\n",
               measure_anchor(m), escape_html(words::behaviour(m)), escape_html(m.exposure));
  }
  fmt::print(out, "</ul></section>\n");
}

// The lines under a row: facts, exposure, note.
void detail_row(const SurveyMeasure& m, std::ostream& out) {
  const auto facts = words::facts(m);
  if (facts.empty() && m.exposure.empty() && m.note.empty()) return;
  fmt::print(out, "<tr class=\"detail{}\"><td colspan=\"6\">",
             m.exposure.empty() ? "" : " exposed");
  for (const auto& fact : facts)
    fmt::print(out, "<div class=\"facts\">{}</div>", escape_html(fact));
  if (!m.exposure.empty()) {
    fmt::print(out, "<div class=\"exposure\">exposure: {}</div>", escape_html(m.exposure));
  }
  if (!m.note.empty()) fmt::print(out, "<div class=\"note\">note: {}</div>", escape_html(m.note));
  fmt::print(out, "</td></tr>\n");
}

void measure_row(const SurveyMeasure& m, double max_wait, std::ostream& out) {
  fmt::print(out, "<tr id=\"{}\" class=\"measure{}\"><td>{}<br><code>{}</code></td>",
             measure_anchor(m), m.exposure.empty() ? "" : " exposed",
             escape_html(words::behaviour(m)), escape_html(m.id));
  if (!m.not_measured.empty()) {
    fmt::print(out, "<td colspan=\"5\" class=\"not-measured\">{}</td></tr>\n",
               escape_html(words::not_measured(m)));
  } else {
    fmt::print(out,
               "<td class=\"nowrap\">{}</td><td class=\"nowrap\">{}</td><td>{}</td><td>{}</td>"
               "<td>{}</td></tr>\n",
               escape_html(words::time(m, max_wait)), escape_html(words::spread(m)),
               escape_html(words::agreement(m)), escape_html(to_string(m.ending)),
               svg::survey_strip(m, max_wait, svg_id("survey", m.id)));
  }
  detail_row(m, out);
}

void problems_and_interruption(const Survey& survey, std::ostream& out) {
  if (!survey.problems.empty()) {
    fmt::print(out, "<h2>Problems</h2><ul class=\"problems\">\n");
    for (const auto& problem : survey.problems) {
      fmt::print(out, "<li>{}</li>\n", escape_html(problem));
    }
    fmt::print(out, "</ul>\n");
  }
  if (survey.interrupted) fmt::print(out, "<p class=\"interrupted\">interrupted: partial</p>\n");
}

}  // namespace

void render_html(const Survey& survey, std::ostream& out) {
  const auto title = escape_html(words::title(survey));
  fmt::print(out,
             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n<p>{2}</p>\n",
             title, kSurveyStyle,
             escape_html(fmt::format("{}; started {}", words::settings(survey), survey.started)));
  exposures_section(survey, out);
  fmt::print(out,
             "<table>\n<tr><th>behaviour</th><th>time</th><th>min/median/max</th><th>agreed</th>"
             "<th>ending</th><th>0 … {} s</th></tr>\n",
             plain_number(survey.max_wait, 4));
  for (const auto& m : survey.measures) measure_row(m, survey.max_wait, out);
  fmt::print(out, "</table>\n");
  if (survey.server) fmt::print(out, "<p>{}</p>\n", escape_html(words::server(*survey.server)));
  problems_and_interruption(survey, out);
  fmt::print(out, "</body></html>\n");
}

}  // namespace loiter::reports
