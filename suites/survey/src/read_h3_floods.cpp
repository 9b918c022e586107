// An h3 flood's records read into a survey measure: timed to the server's end of the
// connection (its CONNECTION_CLOSE, a stateless reset), with the code it closed with and how
// many of the flood's frames had gone out by then; a server that let every frame through is
// an exposure where the flood is one it must end (clients::h3_flood_must_end), and a note
// where it need only bound it. Streams all refused (none answered) end a stream flood too.
#include <fmt/format.h>

#include "loiter/clients/h3/floods.hpp"
#include "read_measures.hpp"

namespace loiter::suites::survey {

reports::SurveyMeasure read_h3_flood(const MeasureHead& head,
                                     const std::vector<clients::ConnectionRecord>& records,
                                     std::size_t bound, double slack) {
  std::size_t most_frames = 0;
  std::optional<std::size_t> at_close;
  std::string how;
  bool stalled = false;
  std::size_t refused = 0, opened = 0, answered = 0;
  for (const auto& record : records) {
    if (!record.h3) continue;
    const auto& h3 = *record.h3;
    most_frames = std::max(most_frames, h3.frames_sent);
    stalled = stalled || h3.credit_stalled;
    refused += h3.streams_refused;
    opened += h3.streams_opened;
    answered += h3.streams_answered;
    if (h3.frames_at_close) {
      at_close = std::max(at_close.value_or(0), *h3.frames_at_close);
      how = h3.close ? clients::h3_error_name(h3.close->code, h3.close->application)
                     : std::string("a stateless reset");
    }
  }
  auto measure = summarize(head, each(records, from_connect), slack);
  if (at_close && !not_the_servers(measure.ending)) {
    measure.note =
        fmt::format("closed with {} after {} of its frames (its bound: {})", how, *at_close, bound);
    return measure;
  }
  if (refused > 0 && answered == 0) {
    // Every stream the server took a position on it refused (the last may still have been
    // in flight when the flood stopped): it ended each, not the connection.
    measure.note = fmt::format(
        "every stream refused, none answered ({} of {} streams reset, "
        "stopped or answered 4xx/5xx), the connection kept",
        refused, opened);
    return measure;
  }
  if (stalled) {
    measure.note = fmt::format(
        "the server gave no credit for more after {} of its frames ({} of {} streams refused)",
        most_frames, refused, opened);
    return measure;
  }
  const auto through = fmt::format(
      "all {} frames of the flood went through; the server never ended the connection{}",
      most_frames, opened > 0 ? fmt::format(" ({} of {} streams refused)", refused, opened) : "");
  if (clients::h3_flood_must_end(head.kind)) {
    measure.exposure = through;
  } else {
    measure.note = through + " (it need not: what it keeps is what to watch)";
  }
  return measure;
}

}  // namespace loiter::suites::survey
