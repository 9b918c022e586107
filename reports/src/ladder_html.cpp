// ladder.html: the plots first (rate steps per side, p99 per step, saturation), then each
// side's steps and knee, a comparison's paired figures, problems. Drawn from the ladder only.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "ladder_plots.hpp"
#include "ladder_words.hpp"
#include "loiter/reports/html.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "loiter/reports/number_text.hpp"
#include "svg_plot.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with report.html's and
// survey.html's helpers.
namespace ladder_html {

namespace words = ladder_words;

constexpr std::string_view kLadderStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1300px}
table{border-collapse:collapse;margin:6px 0}td,th{padding:3px 8px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr.step td,tr.figure td{border-top:1px solid #ddd}
.note,.pairs,.server{color:#555;font-size:13px}.knee{font-weight:600}
tr.client td{background:#f3f0ff}.client-limit{color:#5b3cc4;font-weight:600}
.server-limit,.over-p99,.not-within{color:#b45309;font-weight:600}.within{color:#1a7f37}
tr.worse td{background:#fdecea}tr.worse .verdict{color:#c62828;font-weight:700}
tr.better td{background:#e8f5e9}tr.better .verdict{color:#1a7f37;font-weight:700}
p.worse{color:#c62828;font-weight:600}p.fine{color:#1a7f37}
svg.plot{display:block;margin:10px 0;background:#fff}
.grid{stroke:#eee}.frame{fill:none;stroke:#999}
.xt{font-size:11px;text-anchor:middle}.yt{font-size:11px;text-anchor:end}
.xl,.yl{font-size:11px;fill:#555;text-anchor:middle}.title{font-size:13px;font-weight:600}
.legend,.mark{font-size:11px}.empty{font-size:13px;fill:#999;text-anchor:middle}
details{margin:6px 0}summary{cursor:pointer;color:#555}.problems{color:#c62828}.interrupted{color:#9a6700}
)";

// A word as a class name: "client limit" -> "client-limit".
std::string class_of(std::string text) {
  for (auto& c : text) c = c == ' ' ? '-' : c;
  return text == "-" ? "none" : text;
}

std::string td(const std::string& text, bool number = true) {
  return fmt::format("<td{}>{}</td>", number ? " class=\"n\"" : "", escape_html(text));
}

void plots(const Ladder& ladder, std::ostream& out) {
  for (const auto& side : ladder.sides) {
    const auto plot = ladder_plots::rates(side);
    fmt::print(out, "{}\n", svg::render_plot(plot, svg_id("ladder", plot.id)));
  }
  for (const auto& plot : {ladder_plots::p99(ladder), ladder_plots::saturation(ladder)}) {
    fmt::print(out, "{}\n", svg::render_plot(plot, svg_id("ladder", plot.id)));
  }
}

void step_row(const LadderStep& s, double bound, std::ostream& out) {
  const auto mark = words::mark(s, bound);
  fmt::print(out, "<tr class=\"step{}\"><td>{}</td>", s.limit == Limit::client || s.limit == Limit::both ? " client" : "",
             escape_html(words::step_long(s)));
  fmt::print(out, "{}{}{}{}{}{}{}{}{}{}{}{}", td(words::rate(s.requested_rate)),
             td(words::rate(s.dispatched_rate)), td(words::rate(s.succeeded_rate)),
             td(words::count(double(s.non_2xx))), td(words::count(double(s.errors))),
             td(words::figure(s.p50_ms)), td(words::figure(s.p99_ms)),
             td(words::figure(s.server_cpu_us_per_request)),
             td(words::figure(s.server_rss_peak_mib)), td(words::count(s.server_fds_peak)),
             td(words::busy(s.server_busy)), td(words::busy(s.client_busy)));
  fmt::print(out, "<td class=\"{}\">{}</td></tr>\n", class_of(mark), escape_html(mark));
  if (!s.note.empty()) {
    fmt::print(out,
               "<tr class=\"detail\"><td></td><td colspan=\"13\" class=\"note\">{}</td></tr>\n",
               escape_html(s.note));
  }
}

std::string error_kinds(const LadderTrial& t) {
  std::string text;
  for (const auto& [kind, count] : t.error_kinds) {
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", kind, count);
  }
  return text;
}

// Every trial of a side, folded away: the medians above are over these.
void trials(const LadderSide& side, std::ostream& out) {
  fmt::print(out,
             "<details><summary>every trial</summary><table>\n<tr><th>step</th><th class=\"n\">"
             "run</th><th>source</th><th class=\"n\">s</th><th class=\"n\">requested</th>"
             "<th class=\"n\">dispatched</th><th class=\"n\">2xx</th><th class=\"n\">non-2xx</th>"
             "<th class=\"n\">errors</th><th class=\"n\">p50 ms</th><th class=\"n\">p99 ms</th>"
             "<th class=\"n\">max ms</th><th class=\"n\">client busy</th><th class=\"n\">"
             "server CPU s</th><th class=\"n\">RSS MiB</th><th class=\"n\">FDs before/peak</th>"
             "</tr>\n");
  for (const auto& s : side.steps) {
    for (const auto& t : s.trials) {
      fmt::print(out, "<tr>{}{}{}{}", td(words::step_long(s), false), td(std::to_string(t.run)),
                 td(t.source, false), td(plain_number(t.seconds, 4)));
      fmt::print(out, "{}{}{}{}", td(words::count(double(t.requested))),
                 td(words::count(double(t.dispatched))), td(words::count(double(t.succeeded))),
                 td(words::count(double(t.non_2xx))));
      const auto kinds = error_kinds(t);
      fmt::print(out, "{}{}{}{}{}{}{}{}</tr>\n",
                 td(words::count(double(t.errors)) + (kinds.empty() ? "" : " (" + kinds + ")")),
                 td(words::figure(t.p50_ms)), td(words::figure(t.p99_ms)),
                 td(words::figure(t.max_ms)), td(words::busy(t.client_busy)),
                 td(plain_number(t.server_cpu_s, 4)), td(words::figure(t.server_rss_peak_mib)),
                 td(fmt::format("{}/{}", t.server_fds_before, t.server_fds_peak)));
    }
  }
  fmt::print(out, "</table></details>\n");
}

void side_section(const LadderSide& side, double bound, std::ostream& out) {
  fmt::print(out, "<section id=\"{}\"><h2>{}</h2>\n", svg_id("side", side.role),
             escape_html(words::side_name(side)));
  for (const auto& line : {words::server(side), words::command(side)}) {
    if (!line.empty()) fmt::print(out, "<p class=\"server\">{}</p>\n", escape_html(line));
  }
  fmt::print(out,
             "<table>\n<tr><th>step</th><th class=\"n\">requested/s</th><th class=\"n\">"
             "dispatched/s</th><th class=\"n\">2xx/s</th><th class=\"n\">non-2xx</th>"
             "<th class=\"n\">errors</th><th class=\"n\">p50 ms</th><th class=\"n\">p99 ms</th>"
             "<th class=\"n\">CPU µs/req</th><th class=\"n\">RSS MiB</th><th class=\"n\">FDs</th>"
             "<th class=\"n\">server busy</th><th class=\"n\">client busy</th><th>limit</th>"
             "</tr>\n");
  for (const auto& s : side.steps) step_row(s, bound, out);
  fmt::print(out, "</table>\n<p class=\"knee\">{}</p>\n", escape_html(words::knee(side, bound)));
  trials(side, out);
  fmt::print(out, "</section>\n");
}

void comparison_section(const Ladder& ladder, std::ostream& out) {
  fmt::print(out,
             "<section id=\"comparison\"><h2>Candidate against baseline</h2>\n<p class=\"{}\">"
             "{} (tolerance {}; medians: the change from the baseline's median to the "
             "candidate's; pairs: the median of the pairs' changes, which the interval, by the "
             "sign test, and the verdict are of)</p>\n",
             candidate_worse(ladder) ? "worse" : "fine",
             escape_html(words::comparison_summary(ladder)),
             escape_html(words::percent(ladder.tolerance)));
  fmt::print(out,
             "<table>\n<tr><th>step</th><th>figure</th><th class=\"n\">baseline</th>"
             "<th class=\"n\">candidate</th><th class=\"n\">medians</th>"
             "<th class=\"n\">pairs</th><th>interval</th>"
             "<th>verdict</th><th>each pair</th></tr>\n");
  for (const auto& f : ladder.comparison) {
    const auto verdict = std::string(to_string(f.verdict));
    fmt::print(out, "<tr class=\"figure {}\">{}{}{}{}{}{}{}", verdict, td(f.step, false),
               td(f.figure, false), td(words::side_median(f, f.baseline_median)),
               td(words::side_median(f, f.candidate_median)), td(words::medians_change(f)),
               td(words::change(f.median_change)), td(words::interval(f), false));
    fmt::print(out, "<td class=\"verdict\">{}</td><td class=\"pairs\">{}{}</td></tr>\n",
               escape_html(verdict), escape_html(words::pairs(f)),
               f.note.empty() ? "" : "<div class=\"note\">" + escape_html(f.note) + "</div>");
  }
  fmt::print(out, "</table></section>\n");
}

void problems_and_interruption(const Ladder& ladder, std::ostream& out) {
  if (!ladder.problems.empty()) {
    fmt::print(out, "<h2>Problems</h2><ul class=\"problems\">\n");
    for (const auto& problem : ladder.problems) {
      fmt::print(out, "<li>{}</li>\n", escape_html(problem));
    }
    fmt::print(out, "</ul>\n");
  }
  if (ladder.interrupted) fmt::print(out, "<p class=\"interrupted\">interrupted: partial</p>\n");
}

}  // namespace ladder_html

void render_html(const Ladder& ladder, std::ostream& out) {
  using namespace ladder_html;
  namespace words = ladder_words;  // not survey.html's, in the batch's anonymous namespace
  const auto title = escape_html(words::title(ladder));
  fmt::print(out,
             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n<p>{2}</p>\n",
             title, kLadderStyle,
             escape_html(fmt::format("{}; started {}", words::settings(ladder), ladder.started)));
  if (!ladder.comparison.empty()) {
    fmt::print(out, "<p class=\"{}\"><a href=\"#comparison\">{}</a></p>\n",
               candidate_worse(ladder) ? "worse" : "fine",
               escape_html(words::comparison_summary(ladder)));
  }
  plots(ladder, out);
  for (const auto& side : ladder.sides) side_section(side, ladder.p99_bound_ms, out);
  if (!ladder.comparison.empty()) comparison_section(ladder, out);
  problems_and_interruption(ladder, out);
  fmt::print(out, "</body></html>\n");
}

}  // namespace loiter::reports
