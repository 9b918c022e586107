#include "sample_survey.hpp"

#include "canned_survey.hpp"

namespace loiter::reports::testing {

namespace {

SurveyMeasure measured(std::string id, std::string title, std::string kind, Spread seconds,
                       std::string_view word) {
  const auto ending = canned::ending(word);
  return {.id = std::move(id),
          .title = std::move(title),
          .kind = std::move(kind),
          .from = "connect",
          .connections = 5,
          .agreed = 5,
          .seconds = seconds,
          .ending = ending,
          .endings = {{.ending = ending, .count = 5}}};
}

}  // namespace

Survey sample_survey() {
  Survey survey{.loiter_version = "0.1.0",
                .target = "nginx-tls",
                .endpoint = "127.0.0.1:8443",
                .protocol = SurveyProtocol::tls,
                .tls = true,
                .started = "2026-12-03T11:00:00Z",
                .duration = 412.5,
                .connections = 5,
                .max_wait = 120,
                .slack = 0.25,
                .server = SurveyServer{.pid = 4242,
                                       .fds_before = 11,
                                       .fds_peak = 16,
                                       .fds_after = 11,
                                       .rss_before_mib = 5.1,
                                       .rss_peak_mib = 5.375},
                .problems = {"header-lines: 1 connection could not connect (ECONNREFUSED)"},
                .interrupted = true};
  survey.measures.push_back(
      measured("header-silent", "a silent connection", "silent", {2.0, 2.001, 2.004}, "408+close"));
  survey.measures.push_back(measured("header-partial", "a request head stopped halfway",
                                     "partial-header", {2.0, 2.0, 2.002}, "close"));
  auto bytes =
      measured("header-bytes", "a head trickled a byte at a time", "header-trickle", {}, "open");
  bytes.interval = "a byte every 0.90 s";
  bytes.seconds.reset();
  bytes.extends = true;
  bytes.exposure = "a byte every 0.90 s holds a connection for as long as the client keeps on";
  survey.measures.push_back(bytes);
  auto lines = measured("header-lines", "a head trickled a line at a time", "header-lines",
                        {2.0, 2.001, 2.003}, "close");
  lines.interval = "a line every 0.90 s";
  lines.connections = 4;
  lines.agreed = 4;
  lines.endings = {{.ending = canned::ending("close"), .count = 4}};
  lines.extends = false;
  survey.measures.push_back(lines);
  auto body = measured("body-partial", "a body stopped halfway", "partial-body",
                       {60.0, 60.002, 60.01}, "408+close");
  body.from = "end of head";
  body.agreed = 4;
  body.endings = {{.ending = canned::ending("408+close"), .count = 4},
                  {.ending = canned::ending("reset"), .count = 1}};
  body.note = "one connection was reset 0.5 s after its head";
  survey.measures.push_back(body);
  auto reused = measured("idle-reused", "a kept-alive connection reused at intervals",
                         "idle-keepalive", {75.0, 75.0, 75.001}, "close");
  reused.interval = "a request every 4.00 s";
  reused.runs_from = canned::runs_from("connect");
  survey.measures.push_back(reused);
  survey.measures.push_back({.id = "h2-preface",
                             .title = "a connection preface stopped partway",
                             .kind = "h2-preface",
                             .not_measured = "the target does not speak HTTP/2"});
  return survey;
}

}  // namespace loiter::reports::testing
