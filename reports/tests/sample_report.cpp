#include "sample_report.hpp"

namespace loiter::reports::testing {

RunReport sample_report() {
  const FigureGroup closure{.name = "closure",
                            .unit = "s",
                            .values = {{"min", 1.0012}, {"median", 1.0024}, {"max", 1.0101}}};
  const FigureGroup fds{
      .name = "FDs", .unit = "", .values = {{"baseline", 6}, {"peak", 106}, {"recovered", 6}}};
  const FigureGroup never{
      .name = "closure",
      .unit = "s",
      .values = {{"min", std::nullopt}, {"median", std::nullopt}, {"max", std::nullopt}}};
  const Plot fd_plot{
      .id = "fds",
      .title = "server FDs",
      .x_unit = "s",
      .y_unit = "FDs",
      .style = PlotStyle::step,
      .series = {{.name = "FDs", .points = {{0, 6}, {0.1, 56}, {0.25, 106}, {1.5, 6}}},
                 {.name = "FDs -20.0/min", .points = {{0.75, 56}, {1.5, 6}}, .fit = true}},
      .marks = {{.label = "baseline", .axis = "y", .from = 6, .to = 6},
                {.label = "deadline window", .axis = "x", .from = 0.9, .to = 1.1}}};
  const Plot strip{.id = "closure",
                   .title = "closure <time> & \"ending\"",
                   .x_unit = "s since connect",
                   .y_unit = "connection",
                   .style = PlotStyle::dots,
                   .series = {{.name = "close", .points = {{1.0012, 0}, {1.0101, 1}}}},
                   .marks = {}};
  return RunReport{.loiter_version = "0.1.0",
                   .target = "reference",
                   .target_version = "reference 0.1.0",
                   .target_description = "the bundled reference server, 1 s deadlines",
                   .started_at = "2026-12-01T02:00:00Z",
                   .scenarios = {
                       {.id = "silent",
                        .status = Status::pass,
                        .note = {},
                        .findings = {},
                        .figures = {closure, fds},
                        .plots = {fd_plot, strip}},
                       {.id = "silent-again",
                        .status = Status::fail,
                        .note = {},
                        .findings = {{.code = codes::kStillOpen,
                                      .scenario = "silent-again",
                                      .klass = FindingClass::deadline,
                                      .count = 100,
                                      .of = 100,
                                      .measured = 2.0,
                                      .bound = 1.0,
                                      .unit = "s",
                                      .since = Since::connect}},
                        .figures = {never}},
                       {.id = "stream",
                        .status = Status::skip,
                        .note = "the target declares no stream path",
                        .findings = {},
                        .figures = {}},
                       {.id = "partial-header",
                        .status = Status::info,
                        .note = "not judged",
                        .findings = {},
                        .figures = {closure}},
                   },
          .left_out = {{.protocol = "HTTP/1.1 over TLS",
                        .why = "the target does not speak TLS (no [tls] in its target file)",
                        .ids = {"tls-half-hello", "tls-handshake-silent"},
                        .families = {"tls"}},
                       {.protocol = "HTTP/2",
                        .why = "the target does not speak HTTP/2 (no [h2] in its target file)",
                        .ids = {"h2-idle"},
                        .families = {"h2"}}}};
}

RunReport sample_tls_report() {
  auto report = sample_report();
  report.target = "nginx-tls";
  report.target_tls = TargetTls{.alpn = {"http/1.1"},
                                .server_name = "",
                                .handshake_s = std::nullopt,
                                .header_from = "connect"};
  report.target_protocol = "http/1.1";
  return report;
}

RunReport sample_connected_report() {
  auto report = sample_tls_report();
  report.connected = "127.0.0.1:8443";
  report.not_made = NotMade{.why = "no --pid: the server's process was not sampled",
                            .checks = {"FDs back to baseline (fds-not-recovered)",
                                       "no socket left in CLOSE_WAIT (close-wait)"}};
  return report;
}

}  // namespace loiter::reports::testing
