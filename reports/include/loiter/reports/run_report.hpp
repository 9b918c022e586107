// The canonical run document: plain data every reporter reads. It is the interface of
// reports/: console, JSON, HTML and compare take a RunReport, never a live run, so a stored
// run can be rendered again, or compared, without running anything.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loiter/reports/finding.hpp"

namespace loiter::reports {

inline constexpr std::string_view kSchema = "loiter-run/3";

// info: observed only, nothing judged (a `loiter drive` run).
enum class Status { pass, fail, skip, error, info };
inline constexpr std::array kStatuses{Status::pass, Status::fail, Status::skip, Status::error,
                                      Status::info};
std::string_view to_string(Status status);
std::optional<Status> status_from_string(std::string_view text);

// A few related figures shown together: "closure min/median/max 1.000/1.002/1.004 s".
// A value is nullopt where it could not be measured (no connection closed, say).
struct FigureGroup {
  std::string name;
  std::string unit;  // "s", "" for counts
  std::vector<std::pair<std::string, std::optional<double>>> values;
  bool operator==(const FigureGroup&) const = default;
};

// The "endings" group's suffix for a connection kept open after the server ended the stream
// a stream closure is about (HTTP/2, HTTP/3): "rst-stream+kept-open", "408+kept-open".
inline constexpr char kKeptOpen[] = "kept-open";

// One line (or set of dots) of a plot: (x, y) points in the plot's units. A fitted line (a
// slope over part of the x axis) is drawn dashed, point to point, whatever the plot's style,
// in the colour of the series just before it (the line it fits).
struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;
  bool fit = false;
  bool operator==(const Series&) const = default;
};

// A reference drawn over a plot: a line where from == to, a band otherwise, across the
// x axis ("x": vertical) or the y axis ("y": horizontal).
struct Mark {
  std::string label;
  std::string axis;  // "x" or "y"
  double from = 0;
  double to = 0;
  bool operator==(const Mark&) const = default;
};

// What a plot draws its series as.
enum class PlotStyle { line, step, dots };
std::string_view to_string(PlotStyle style);
std::optional<PlotStyle> plot_style_from_string(std::string_view text);

// A plot of plain series: what the HTML report draws, computed when the run was judged.
struct Plot {
  std::string id;  // unique within the scenario: "fds", "open", "closure", "tcp", ...
  std::string title;
  std::string x_unit;
  std::string y_unit;
  PlotStyle style = PlotStyle::line;
  std::vector<Series> series;
  std::vector<Mark> marks;
  bool operator==(const Plot&) const = default;
};

struct ScenarioReport {
  std::string id;
  Status status = Status::pass;
  std::string note;               // why skipped, or the harness error
  std::vector<Finding> findings;  // what failed and by how much
  std::vector<FigureGroup> figures;
  std::vector<Plot> plots;
  bool operator==(const ScenarioReport&) const = default;
};

// A TLS target's declaration ([tls] in its target file), as the run document carries it.
struct TargetTls {
  std::vector<std::string> alpn;      // the protocols loiter offered
  std::string server_name;            // the SNI loiter sent; empty: none
  std::optional<double> handshake_s;  // the handshake deadline, from connect; nullopt: none
  std::string header_from;            // where the header deadline runs from: "connect", "handshake"
  bool operator==(const TargetTls&) const = default;
};

// Scenarios of the default run that the target's protocol could never run (a cleartext
// target and the TLS scenarios; an HTTP/1.1 target and the HTTP/2 ones): not run, named
// once, not counted as skipped.
struct LeftOut {
  std::string protocol;          // what they speak: "HTTP/1.1", "HTTP/1.1 over TLS", "HTTP/2"
  std::string why;               // "the target does not speak TLS (no [tls] in its target file)"
  std::vector<std::string> ids;  // in catalogue order
  // Their families ("header", "body"), each once, in catalogue order; empty in documents
  // written before it.
  std::vector<std::string> families;
  bool operator==(const LeftOut&) const = default;
};

// Checks a run did not make, and why: a run against a server loiter did not start, without
// its PID (check --connect without --pid), samples nothing of the server, and the checks that
// read its side are named here, neither passed nor failed.
struct NotMade {
  std::string why;                  // "no --pid: the server's process was not sampled"
  std::vector<std::string> checks;  // "FDs back to baseline (fds-not-recovered, ...)"
  bool operator==(const NotMade&) const = default;
};

struct RunReport {
  std::string loiter_version;
  std::string target;
  std::string target_version;           // the first line of its version command; may be empty
  std::string target_description;       // the target file's description; may be empty
  std::optional<TargetTls> target_tls;  // nullopt: a cleartext target (or drive)
  // The protocol loiter spoke to the target: "http/1.1", "h2c" (HTTP/2 with prior knowledge),
  // "h2" (HTTP/2 over TLS, chosen by ALPN) or "h3" (HTTP/3 over QUIC); empty: not said
  // (drive, older documents).
  std::string target_protocol;
  std::string not_run;     // why the target was not run at all (then no scenarios)
  std::string started_at;  // UTC, ISO 8601
  std::vector<ScenarioReport> scenarios;
  std::vector<LeftOut> left_out;  // of the default run, by protocol; empty: none
  // The server loiter connected to and did not start (check --connect): "127.0.0.1:8080
  // (pid 1234)"; empty: loiter started a server for each scenario.
  std::string connected;
  std::optional<NotMade> not_made;  // nullopt: every check was made
  bool operator==(const RunReport&) const = default;
};

// How a title says what loiter spoke to the target: " over h2c", " over HTTP/2 and TLS",
// " over TLS", or nothing (cleartext HTTP/1.1).
std::string over(const RunReport& report);

// A figure as a reader reads it, by its unit: "1.002" (s), "0.56" (ms, MiB), "-" when not
// measured, else plain_number ("1711734").
std::string figure_value_text(const std::optional<double>& value, std::string_view unit);
// "closure min/median/max 1.000/1.002/1.004 s": a group's names and values, and its unit.
std::string group_text(const FigureGroup& group);

// "not for this target: 2 HTTP/1.1 over TLS scenarios (tls-half-hello, tls-handshake-silent):
// the target does not speak TLS (...); 1 HTTP/2 scenario (h2-idle): ..."; a group of more than
// a few is counted by its families, and one reason all groups share is said once: "not for
// this target (the target speaks HTTP/3 ...): 16 HTTP/1.1 (header, body, ...), 4 HTTP/1.1 over
// TLS (tls), ...; `loiter check --list` names them". Wrapped at `width` columns (0: one line),
// later lines indented by two spaces. Empty when nothing was left out.
std::string left_out_line(const RunReport& report, std::size_t width = 0);

// "against a server loiter did not start: 127.0.0.1:8080 (pid 1234)"; empty when it started
// it.
std::string connected_line(const RunReport& report);
// "not made (no --pid: ...): FDs back to baseline (...), ..."; empty when every check was.
std::string not_made_line(const RunReport& report);

// The figure `value` of group `group` in a scenario, if present and measured.
std::optional<double> figure(const ScenarioReport& scenario, std::string_view group,
                             std::string_view value);

}  // namespace loiter::reports
