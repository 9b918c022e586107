// denial.html: per kind its plots first (2xx share with the attacker's reopens/s, p99 with
// the attacker's bytes/s), then each side's knees and step tables, a comparison's knees,
// problems. Drawn from the denial document only.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "denial_plots.hpp"
#include "denial_words.hpp"
#include "ladder_words.hpp"
#include "loiter/reports/denial_render.hpp"
#include "loiter/reports/html.hpp"
#include "loiter/reports/number_text.hpp"
#include "svg_plot.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with report.html's,
// survey.html's and ladder.html's helpers.
namespace denial_html {

namespace words = denial_words;
namespace numbers = ladder_words;

constexpr std::string_view kDenialStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1500px}
table{border-collapse:collapse;margin:6px 0}td,th{padding:3px 8px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.n{white-space:nowrap}
tr.step td,tr.kind td{border-top:1px solid #ddd}
th.group{text-align:center;color:#555;font-weight:500;border-bottom:1px solid #ccc}
.server,.note{color:#555;font-size:13px}ul.knees{margin:4px 0 10px}
tr.denied td{background:#fff4e5}.denied{color:#b45309;font-weight:600}.served{color:#1a7f37}
tr.lower td{background:#fdecea}tr.lower .change{color:#c62828;font-weight:700}
tr.higher .change{color:#1a7f37;font-weight:700}p.lower{color:#c62828;font-weight:600}p.fine{color:#1a7f37}
div.pair{display:flex;flex-wrap:wrap;gap:8px}div.pair svg.plot{width:49%;min-width:560px;height:auto}
svg.plot{display:block;margin:10px 0;background:#fff}
.grid{stroke:#eee}.frame{fill:none;stroke:#999}
.xt{font-size:11px;text-anchor:middle}.yt{font-size:11px;text-anchor:end}.yr{font-size:11px;text-anchor:start}
.xl,.yl{font-size:11px;fill:#555;text-anchor:middle}.title{font-size:13px;font-weight:600}
.legend,.mark{font-size:11px}.empty{font-size:13px;fill:#999;text-anchor:middle}
.problems{color:#c62828}.interrupted{color:#9a6700}
)";

std::string td(const std::string& text, bool number = true) {
  return fmt::format("<td{}>{}</td>", number ? " class=\"n\"" : "", escape_html(text));
}

std::string count(double value) { return numbers::count(value); }

// Per kind, its two plots side by side, each with the attacker's cost on a right axis.
void plots(const Denial& denial, std::ostream& out) {
  for (const auto& kind : denial_plots::kinds(denial)) {
    fmt::print(out, "<section class=\"kind\" id=\"{}\"><h2>{}</h2>\n<div class=\"pair\">\n",
               svg_id("kind", kind), escape_html(kind));
    for (const auto& plot : {denial_plots::share(denial, kind), denial_plots::p99(denial, kind)}) {
      fmt::print(out, "{}\n",
                 svg::render_plot(plot.left, plot.right, svg_id("denial", plot.left.id)));
    }
    fmt::print(out, "</div></section>\n");
  }
}

constexpr std::string_view kStepHeadings =
    "<tr><th></th><th class=\"group\" colspan=\"6\">the attacker's held connections</th>"
    "<th class=\"group\" colspan=\"6\">the regular traffic</th>"
    "<th class=\"group\" colspan=\"4\">the server</th><th></th></tr>\n"
    "<tr><th class=\"n\">held</th><th class=\"n\">reached/low</th><th class=\"n\">reached in"
    " s</th><th class=\"n\">opened (reopened, failed)</th><th class=\"n\">reopens/s</th>"
    "<th class=\"n\">B/s</th><th class=\"n\">requested</th><th class=\"n\">2xx</th>"
    "<th class=\"n\">non-2xx</th><th class=\"n\">errors</th><th class=\"n\">p99 / max ms</th>"
    "<th class=\"n\">loiter busy (holder, load)</th><th class=\"n\">FDs before/peak/limit</th>"
    "<th class=\"n\">RSS MiB</th><th class=\"n\">accept queue</th><th class=\"n\">busy</th>"
    "<th>verdict</th></tr>\n";

// A step's row, its verdict a word; what it rests on (why, the cause, the errors by kind)
// in a row under it, where a long sentence does not squeeze the table.
void step_row(const DenialStep& s, std::ostream& out) {
  fmt::print(out, "<tr class=\"step{}\">{}{}{}", s.denied ? " denied" : "",
             td(count(double(s.held))), td(words::reached(s)),
             td(plain_number(s.reach_seconds, 3)));
  fmt::print(out, "{}{}{}",
             td(fmt::format("{} ({}, {})", count(double(s.opened)), count(double(s.reopened)),
                            count(double(s.connect_failures)))),
             td(numbers::figure(s.connects_per_s)), td(numbers::figure(s.bytes_per_s)));
  fmt::print(out, "{}{}{}{}{}{}", td(count(double(s.requested))),
             td(count(double(s.succeeded)) + " (" + words::share(s) + ")"),
             td(count(double(s.non_2xx))), td(count(double(s.errors))),
             td(numbers::figure(s.p99_ms) + " / " + numbers::figure(s.max_ms)),
             td(numbers::busy(s.holder_busy) + ", " + numbers::busy(s.client_busy)));
  const auto limit = s.server_fd_limit ? count(double(*s.server_fd_limit)) : std::string("?");
  fmt::print(out, "{}{}{}{}",
             td(fmt::format("{}/{}/{}", count(double(s.server_fds_before)),
                            count(double(s.server_fds_peak)), limit)),
             td(numbers::figure(s.server_rss_peak_mib)), td(words::queue(s)),
             td(numbers::busy(s.server_busy)));
  fmt::print(out, "<td class=\"{0}\">{0}</td></tr>\n", s.denied ? "denied" : "served");
  std::string under = s.denied ? words::verdict(s) : "";
  if (const auto kinds = words::error_kinds(s); !kinds.empty()) {
    under += (under.empty() ? "" : "; ") + ("errors: " + kinds);
  }
  if (!under.empty()) {
    fmt::print(out,
               "<tr class=\"detail\"><td></td><td colspan=\"16\" class=\"note\">{}</td></tr>\n",
               escape_html(under));
  }
}

void side_section(const DenialSide& side, std::ostream& out) {
  fmt::print(out, "<section id=\"{}\"><h2>{}</h2>\n", svg_id("side", side.role),
             escape_html(words::side_name(side)));
  for (const auto& line : {words::server(side), words::command(side)}) {
    if (!line.empty()) fmt::print(out, "<p class=\"server\">{}</p>\n", escape_html(line));
  }
  if (const auto control = words::control(side); !control.empty()) {
    fmt::print(out, "<p class=\"control{}\">{}</p>\n", side.control->denied ? " denied" : "",
               escape_html(control));
  }
  fmt::print(out, "<ul class=\"knees\">\n");
  for (const auto& kind : side.kinds) {
    fmt::print(out, "<li>{}</li>\n", escape_html(words::kind_line(kind)));
  }
  fmt::print(out, "</ul>\n");
  for (const auto& kind : side.kinds) {
    if (kind.steps.empty()) continue;
    fmt::print(out, "<h3>{}</h3>\n<table>\n{}", escape_html(kind.kind), kStepHeadings);
    for (const auto& s : kind.steps) step_row(s, out);
    fmt::print(out, "</table>\n");
  }
  fmt::print(out, "</section>\n");
}

void comparison_section(const Denial& denial, std::ostream& out) {
  fmt::print(out,
             "<section id=\"comparison\"><h2>Candidate against baseline</h2>\n<p class=\"{}\">"
             "{} (a knee is the fewest held connections that denied the regular traffic; "
             "&gt; N: not denied up to N)</p>\n<table>\n<tr><th>kind</th>"
             "<th class=\"n\">baseline knee</th><th class=\"n\">candidate knee</th>"
             "<th>change</th></tr>\n",
             candidate_denied_sooner(denial) ? "lower" : "fine",
             escape_html(words::comparison_summary(denial)));
  for (const auto& c : denial.comparison) {
    const auto change = std::string(to_string(c.change));
    fmt::print(out, "<tr class=\"kind {}\">{}{}{}<td class=\"change\">{}</td></tr>\n", change,
               td(c.kind, false), td(words::knee(c.baseline_knee, c.baseline_highest)),
               td(words::knee(c.candidate_knee, c.candidate_highest)), escape_html(change));
  }
  fmt::print(out, "</table></section>\n");
}

void problems_and_interruption(const Denial& denial, std::ostream& out) {
  if (!denial.problems.empty()) {
    fmt::print(out, "<h2>Problems</h2><ul class=\"problems\">\n");
    for (const auto& problem : denial.problems) {
      fmt::print(out, "<li>{}</li>\n", escape_html(problem));
    }
    fmt::print(out, "</ul>\n");
  }
  if (denial.interrupted) fmt::print(out, "<p class=\"interrupted\">interrupted: partial</p>\n");
}

}  // namespace denial_html

void render_html(const Denial& denial, std::ostream& out) {
  using namespace denial_html;
  namespace words = denial_words;  // not another page's, in the batch's anonymous namespace
  const auto title = escape_html(words::title(denial));
  fmt::print(out,
             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n<p>{2}</p>\n",
             title, kDenialStyle,
             escape_html(fmt::format("{}; started {}", words::settings(denial), denial.started)));
  if (!denial.comparison.empty()) {
    fmt::print(out, "<p class=\"{}\"><a href=\"#comparison\">{}</a></p>\n",
               candidate_denied_sooner(denial) ? "lower" : "fine",
               escape_html(words::comparison_summary(denial)));
  }
  plots(denial, out);
  for (const auto& side : denial.sides) side_section(side, out);
  if (!denial.comparison.empty()) comparison_section(denial, out);
  problems_and_interruption(denial, out);
  fmt::print(out, "</body></html>\n");
}

}  // namespace loiter::reports
