// Canned surveys for the tests of what reads a survey: measures built in one line each, and a
// survey that measured every id of survey.hpp. Test support, header-only.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "loiter/reports/survey.hpp"

namespace loiter::reports::canned {

// An ending, and where a deadline runs from, by their words in survey.json ("408+close",
// "last-response"); a word they cannot be throws.
inline SurveyEnding ending(std::string_view word) { return survey_ending_of(word).value(); }
inline RunsFrom runs_from(std::string_view word) { return runs_from_of(word).value(); }

// A probe of 5 connections that all agreed: ended `ending` after `median` s (±0.01), or were
// still open when the wait ran out (median nullopt).
inline SurveyMeasure timed(std::string id, std::string title, std::optional<double> median,
                           std::string_view word = "close") {
  SurveyMeasure m{.id = std::move(id),
                  .title = std::move(title),
                  .kind = "canned",
                  .from = "connect",
                  .connections = 5,
                  .agreed = 5};
  if (median) m.seconds = Spread{.min = *median - 0.01, .median = *median, .max = *median + 0.01};
  m.ending = ending(median ? word : "open");
  m.endings = {{.ending = m.ending, .count = 5}};
  return m;
}

inline SurveyMeasure with_extends(SurveyMeasure m, bool extends, std::string interval) {
  m.extends = extends;
  m.interval = std::move(interval);
  return m;
}

inline SurveyMeasure with_runs_from(SurveyMeasure m, std::string_view word) {
  m.runs_from = runs_from(word);
  return m;
}

inline SurveyMeasure not_measured(std::string id, std::string why) {
  return {.id = std::move(id), .title = "not measured", .not_measured = std::move(why)};
}

inline Survey empty_survey(SurveyProtocol protocol = SurveyProtocol::http1, bool tls = false) {
  return {.loiter_version = "0.1.0",
          .target = "nginx",
          .endpoint = "127.0.0.1:8080",
          .protocol = protocol,
          .tls = tls,
          .started = "2026-12-03T11:00:00Z",
          .duration = 90,
          .connections = 5,
          .max_wait = 120,
          .slack = 0.25};
}

// Every measure of survey.hpp, of a server whose deadlines differ from every bundled file's:
// head 3 s (408), body 4.37 s (close, reset between reads), idle 5 s, a second head from its
// first byte, send 6 s (between writes), handshake 1.5 s, header from the handshake, preface
// 2.5 s, GOAWAY before the idle close.
inline Survey everything(SurveyProtocol protocol = SurveyProtocol::http1, bool tls = false) {
  Survey s = empty_survey(protocol, tls);
  s.measures = {
      timed("header-silent", "a silent connection", 3.0),
      timed("header-partial", "a partial head", 3.004, "408+close"),
      with_extends(timed("header-bytes", "a trickled head", 3.0, "408+close"), false,
                   "a byte every 0.90 s"),
      with_extends(timed("header-lines", "a head trickled by lines", 3.0, "408+close"), false,
                   "a line every 0.90 s"),
      timed("body-partial", "a partial body", 4.372),
      with_extends(timed("body-trickle", "a trickled body", std::nullopt), true,
                   "a byte every 1.90 s"),
      timed("idle", "an idle kept-alive connection", 5.0),
      with_runs_from(timed("idle-reused", "a reused connection", 5.0), "last-response"),
      with_runs_from(timed("next-head", "a partial second head", 3.0), "first-byte"),
      timed("send-stopped", "a reader that stopped", 6.0, "reset"),
      with_extends(timed("send-slow", "a slow reader", std::nullopt), true, "4 KiB every 1.90 s"),
      timed("tls-handshake", "a partial ClientHello", 1.5),
      timed("tls-hello-trickle", "a trickled ClientHello", 1.5),
      with_runs_from(timed("tls-header-from", "a head after a late handshake", 3.0), "handshake"),
      timed("h2-preface", "a partial preface", 2.5),
      timed("h2-settings-ack", "SETTINGS never acknowledged", 2.5),
      with_runs_from(timed("h2-idle", "an idle h2 connection", 5.0), "NO_ERROR"),
      timed("h2-headers-no-end", "a header block never ended", 3.0)};
  return s;
}

// The measure `id` of `survey`, to change it in a test.
inline SurveyMeasure& measure(Survey& survey, std::string_view id) {
  for (auto& m : survey.measures) {
    if (m.id == id) return m;
  }
  survey.measures.push_back({.id = std::string(id)});
  return survey.measures.back();
}

}  // namespace loiter::reports::canned
