// report.html: the page around the plots — header, what failed and why, summary table, one
// section per scenario.
#include "loiter/reports/html.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "loiter/reports/markup.hpp"
#include "loiter/reports/number_text.hpp"
#include "svg_plot.hpp"

namespace loiter::reports {

namespace {

constexpr std::string_view kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
table{border-collapse:collapse}td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left}
.pass{color:#1a7f37}.fail,.error{color:#c62828}.skip{color:#9a6700}.info{color:#0a6e8a}
section{margin-top:28px}h2{margin-bottom:4px}ul.findings{color:#c62828}
.finding-class{font-size:11px;font-weight:600;text-transform:uppercase;color:#555;margin-right:6px}
svg.plot{display:block;margin:10px 0;background:#fff}
.grid{stroke:#eee}.frame{fill:none;stroke:#999}
.xt{font-size:11px;text-anchor:middle}.yt{font-size:11px;text-anchor:end}
.xl,.yl{font-size:11px;fill:#555;text-anchor:middle}.title{font-size:13px;font-weight:600}
.legend,.mark{font-size:11px}.empty{font-size:13px;fill:#999;text-anchor:middle}
)";

// Every figure group of the scenario, "; " between them.
std::string figures_text(const ScenarioReport& scenario) {
  std::string text;
  for (const auto& group : scenario.figures) {
    text += (text.empty() ? "" : "; ") + group_text(group);
  }
  return text;
}

void summary(const RunReport& report, std::ostream& out) {
  fmt::print(out, "<table><tr><th>scenario</th><th>verdict</th><th>figures</th></tr>\n");
  for (const auto& s : report.scenarios) {
    const auto status = to_string(s.status);
    fmt::print(out,
               "<tr><td><a href=\"#s-{0}\">{0}</a></td><td class=\"{1}\">{1}</td><td>{2}</td>"
               "</tr>\n",
               escape_html(s.id), status,
               escape_html(figures_text(s) + (s.note.empty() ? "" : fmt::format(" ({})", s.note))));
  }
  fmt::print(out, "</table>\n");
}

void findings_list(const ScenarioReport& s, std::ostream& out) {
  fmt::print(out, "<ul class=\"findings\">\n");
  for (const auto& f : s.findings) {
    const auto klass = to_string(f.klass);
    fmt::print(out, "<li class=\"finding-{0}\"><span class=\"finding-class\">{0}</span> {1}</li>\n",
               klass, escape_html(text(f)));
  }
  fmt::print(out, "</ul>\n");
}

// The page opens with what failed and why: each failed scenario (or harness error), a link
// to its section, and its findings (an error's note); or one line saying nothing failed.
void failures(const RunReport& report, std::ostream& out) {
  std::vector<const ScenarioReport*> failed;
  for (const auto& s : report.scenarios) {
    if (s.status == Status::fail || s.status == Status::error) failed.push_back(&s);
  }
  if (failed.empty()) {
    if (!report.scenarios.empty()) fmt::print(out, "<p class=\"pass\">Nothing failed.</p>\n");
    return;
  }
  fmt::print(out, "<section id=\"failed\"><h2 class=\"fail\">What failed ({} of {})</h2>\n",
             failed.size(), report.scenarios.size());
  for (const auto* s : failed) {
    fmt::print(out, "<h3><a href=\"#s-{0}\">{0}</a> <span class=\"{1}\">{1}</span></h3>\n",
               escape_html(s->id), to_string(s->status));
    if (!s->note.empty()) fmt::print(out, "<p>{}</p>\n", escape_html(s->note));
    if (!s->findings.empty()) findings_list(*s, out);
  }
  fmt::print(out, "</section>\n<h2>Every scenario</h2>\n");
}

void section(const ScenarioReport& s, std::ostream& out) {
  fmt::print(out, "<section id=\"s-{0}\"><h2>{0} <span class=\"{1}\">{1}</span></h2>\n",
             escape_html(s.id), to_string(s.status));
  if (!s.note.empty()) fmt::print(out, "<p>{}</p>\n", escape_html(s.note));
  if (!s.findings.empty()) findings_list(s, out);
  for (const auto& plot : s.plots) {
    fmt::print(out, "{}\n", svg::render_plot(plot, svg_id(s.id, plot.id)));
  }
  fmt::print(out, "</section>\n");
}

}  // namespace

std::string escape_html(std::string_view text) { return escape_markup(text, Breaks::kept); }

std::string svg_id(std::string_view scenario, std::string_view plot) {
  std::string id = fmt::format("plot-{}-{}", scenario, plot);
  for (auto& c : id) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
    else if (!keep)
      c = '-';
  }
  return id;
}

namespace {

// "TLS: ALPN http/1.1, SNI none, handshake deadline none, header deadline from connect".
std::string tls_line(const std::optional<TargetTls>& tls) {
  if (!tls) return "";
  return fmt::format("TLS: ALPN {}, SNI {}, handshake deadline {}, header deadline from {}",
                     tls->alpn.empty() ? "none" : fmt::format("{}", fmt::join(tls->alpn, " ")),
                     tls->server_name.empty() ? "none" : tls->server_name,
                     tls->handshake_s ? plain_number(*tls->handshake_s) + " s" : "none",
                     tls->header_from);
}

}  // namespace

void render_html(const RunReport& report, std::ostream& out) {
  const auto title = escape_html(fmt::format("loiter {} against {}{} ({})", report.loiter_version,
                                             report.target, over(report), report.started_at));
  fmt::print(out,
             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n",
             title, kStyle);
  for (const auto& line :
       {report.target_version, report.target_description, tls_line(report.target_tls)}) {
    if (!line.empty()) fmt::print(out, "<p>{}</p>\n", escape_html(line));
  }
  if (!report.not_run.empty()) fmt::print(out, "<p>not run: {}</p>\n", escape_html(report.not_run));
  for (const auto& line : {left_out_line(report), connected_line(report), not_made_line(report)}) {
    if (!line.empty()) fmt::print(out, "<p>{}</p>\n", escape_html(line));
  }
  failures(report, out);
  summary(report, out);
  for (const auto& scenario : report.scenarios) section(scenario, out);
  fmt::print(out, "</body></html>\n");
}

}  // namespace loiter::reports
