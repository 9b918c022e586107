// After every phase: what each progress probe extends against its stalled twin, and the
// exposures a person reads first.
#include <fmt/format.h>

#include <algorithm>

#include "probes.hpp"

namespace loiter::suites::survey {

namespace {

void judge_twin(reports::Survey& survey, std::string_view progress_id, std::string_view twin_id,
                const std::string& holds, double slack, double max_wait) {
  auto it = std::ranges::find(survey.measures, progress_id, &reports::SurveyMeasure::id);
  const auto* twin = reports::find_measure(survey, twin_id);
  if (it == survey.measures.end() || twin == nullptr) return;
  judge_progress(*it, *twin, holds, slack, max_wait);
}

}  // namespace

void conclude(reports::Survey& survey, double slack, double max_wait) {
  judge_twin(survey, "header-bytes", "header-partial", "a request head", slack, max_wait);
  judge_twin(survey, "header-lines", "header-partial", "a request head", slack, max_wait);
  judge_twin(survey, "body-trickle", "body-partial", "a request body", slack, max_wait);
  judge_twin(survey, "tls-hello-trickle", "tls-handshake", "a TLS handshake", slack, max_wait);
  judge_twin(survey, "h3-header-trickle", "h3-header", "a request stream's HEADERS", slack,
             max_wait);
  for (auto& measure : survey.measures) {
    const auto& id = measure.id;
    if (id == "header-silent") {
      expose_if_open(measure,
                     measure.note.empty()
                         ? "a connection that sends nothing is held for as long as the client likes"
                         : "a silent connection stays open on the client's side (SYN_RECV: it "
                           "costs the server no descriptor)",
                     max_wait);
    } else if (id == "header-partial") {
      expose_if_open(measure,
                     "half a request head holds a connection for as long as the client likes",
                     max_wait);
    } else if (id == "body-partial") {
      expose_if_open(measure,
                     "half a request body holds a connection for as long as the client likes",
                     max_wait);
    } else if (id == "idle" || id == "h2-idle") {
      expose_if_open(measure,
                     "an idle kept-alive connection is held for as long as the client likes",
                     max_wait);
    } else if (id == "send-stopped") {
      expose_if_open(measure,
                     "a reader that stops reading holds its response, and the server's buffers, "
                     "for as long as it likes",
                     max_wait);
    } else if (id == "next-head" && measure.runs_from.origin == reports::RunsFrom::Origin::never) {
      measure.exposure = fmt::format(
          "half a second request head on a kept-alive connection is never timed out (none "
          "within {})",
          seconds_text(max_wait));
    } else if (id == "tls-handshake") {
      expose_if_open(measure,
                     "half a ClientHello holds a connection for as long as the client likes",
                     max_wait);
    } else if (id == "h2-preface" || id == "h2-settings-ack" || id == "h2-headers-no-end") {
      expose_if_open(
          measure,
          fmt::format("{} holds a connection for as long as the client likes", measure.title),
          max_wait);
    } else if (id == "h3-handshake") {
      expose_if_open(measure,
                     "a half-open QUIC connection (half a ClientHello) is held for as long as the "
                     "client likes",
                     max_wait);
    } else if (id == "h3-idle") {
      expose_if_open(measure,
                     "an idle QUIC connection is held for as long as the client likes", max_wait);
    } else if (id == "h3-header" || id == "h3-body" || id == "h3-send") {
      expose_if_open(
          measure,
          fmt::format("{} holds a request stream for as long as the client likes", measure.title),
          max_wait);
    } else if (id == "send-slow" && measure.extends == false && measure.note.empty()) {
      measure.note =
          "the send deadline runs over the whole response: a slow but steady reader "
          "is cut";
    }
  }
}

}  // namespace loiter::suites::survey
