// matrix.html: one self-contained page (inline CSS, no script, nothing fetched): the table,
// each cell coloured by its verdict and linked to its server's report.html, the findings
// below.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>

#include "loiter/reports/html.hpp"
#include "loiter/reports/matrix.hpp"
#include "matrix_notes.hpp"

namespace loiter::reports {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMatrixStyle = R"(
body{{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}}
table{{border-collapse:collapse}}th,td{{padding:6px 10px;border:2px solid #fff;text-align:left;vertical-align:top}}
tr.head th{{background:#f2f2f2}}td a,th a{{display:block;color:#222;text-decoration:none}}
td.pass{{background:{}}}td.fail{{background:{}}}td.skip{{background:{}}}td.error{{background:{}}}
td.info{{background:{}}}ul.findings li{{margin:3px 0}}
)";

// A path as a URL path: anything but unreserved characters and '/' percent-encoded.
std::string url_path(const std::string& path) {
  std::string out;
  for (const unsigned char c : path) {
    const bool keep = std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~' ||
                      c == '/' || c == '+';
    out += keep ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return out;
}

// The run's report.html, relative to the directory the page is written in.
std::string report_link(const fs::path& run_directory, const fs::path& html_path) {
  const auto from = fs::absolute(html_path).parent_path().lexically_normal();
  const auto to = (fs::absolute(run_directory) / "report.html").lexically_normal();
  const auto relative = to.lexically_relative(from);
  return url_path((relative.empty() ? to : relative).generic_string());
}

std::string cell_html(const MatrixRow& row, const std::string& id, const std::string& link) {
  if (!row.not_run.empty()) return R"(<td class="skip">-</td>)";
  const auto cell = std::ranges::find(row.cells, id, &MatrixCell::scenario);
  if (cell == row.cells.end()) return "<td></td>";
  const auto status = to_string(cell->status);
  const auto label =
      cell->status == Status::fail ? std::string("<strong>FAIL</strong>") : std::string(status);
  return fmt::format(R"(<td class="{}" title="{}"><a href="{}#s-{}">{}{}{}</a></td>)", status,
                     escape_html(cell->note), link, url_path(id), label,
                     cell->figure.empty() ? "" : " ", escape_html(cell->figure));
}

void table(const Matrix& matrix, const fs::path& html_path, std::ostream& out) {
  fmt::print(out, "<table>\n<tr class=\"head\"><th>server</th><th>version</th>");
  for (const auto& id : matrix.scenarios) fmt::print(out, "<th>{}</th>", escape_html(id));
  fmt::print(out, "</tr>\n");
  for (const auto& row : matrix.rows) {
    const auto link = report_link(row.directory, html_path);
    fmt::print(out, R"(<tr><th><a href="{}">{}</a></th><td title="{}">{}</td>)", link,
               escape_html(row.target), escape_html(row.description), escape_html(row.version));
    for (const auto& id : matrix.scenarios) fmt::print(out, "{}", cell_html(row, id, link));
    fmt::print(out, "</tr>\n");
  }
  fmt::print(out, "</table>\n");
}

}  // namespace

std::string_view verdict_colour(Status status) {
  switch (status) {
    case Status::pass:
      return "#bfe8c8";
    case Status::fail:
      return "#f5b8b8";
    case Status::skip:
      return "#e4e4e4";
    case Status::error:
      return "#f6d38c";
    case Status::info:
      return "#bfe3f0";
  }
  return "#ffffff";
}

void render_matrix_html(const Matrix& matrix, const fs::path& html_path, std::ostream& out) {
  const auto title =
      escape_html(fmt::format("loiter {} matrix, {}", matrix.loiter_version, matrix.started_at));
  const auto style = fmt::format(kMatrixStyle, verdict_colour(Status::pass), verdict_colour(Status::fail),
                                 verdict_colour(Status::skip), verdict_colour(Status::error),
                                 verdict_colour(Status::info));
  fmt::print(out,
             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n",
             title, style);
  table(matrix, html_path, out);
  const auto notes = matrix_notes::notes(matrix);
  if (!notes.empty()) {
    fmt::print(out, "<h2>Findings (and servers not run)</h2>\n<ul class=\"findings\">\n");
    for (const auto& note : notes) {
      fmt::print(out, "<li><b>{}</b>{}{}: {}</li>\n", escape_html(note.target),
                 note.scenario.empty() ? "" : " ", escape_html(note.scenario),
                 escape_html(note.text));
    }
    fmt::print(out, "</ul>\n");
  }
  fmt::print(out, "</body></html>\n");
}

}  // namespace loiter::reports
