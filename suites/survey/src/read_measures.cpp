#include "read_measures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "read_streams.hpp"

namespace loiter::suites::survey {

using clients::ConnectionRecord;
using Way = reports::SurveyEnding::Way;
using Origin = reports::RunsFrom::Origin;

namespace {

// The GOAWAY's code as the survey words it ("NO_ERROR"), or none when no GOAWAY came.
reports::RunsFrom goaway_of(std::optional<std::uint32_t> code) {
  if (!code) return {.origin = Origin::no_goaway};
  return {.origin = Origin::goaway, .goaway_code = clients::h2_error_name(*code)};
}

// Whether a reader was still taking bytes when the server ended its connection: from its
// first byte to the ending, no stretch of `stall` s or more without new bytes. A deadline
// that progress restarts never cuts such a reader: each of its reads lets the server's
// writes go on.
bool read_up_to_the_cut(const ConnectionRecord& record, double stall) {
  if (!record.first_byte || record.progress.empty()) return false;
  auto last_bytes = *record.first_byte;
  std::size_t bytes = 0;
  for (const auto& p : record.progress) {
    if (p.bytes == bytes) continue;
    if (in_seconds(p.at - last_bytes) >= stall) return false;
    last_bytes = p.at;
    bytes = p.bytes;
  }
  return bytes > 0 && in_seconds(record.ended_at - last_bytes) < stall;
}

}  // namespace

reports::SurveyMeasure read_idle_reused(const MeasureHead& head,
                                        const std::vector<ConnectionRecord>& records,
                                        std::size_t requests, double slack) {
  std::vector<Timed> timed;
  std::size_t early = 0;
  for (const auto& record : records) {
    if (clients::complete_responses(record) < requests && ended_by_server(record)) {
      ++early;
      timed.push_back(from_connect(record));
    } else {
      timed.push_back(from_last_response(record));
    }
  }
  auto measure = summarize(head, timed, slack);
  measure.runs_from.origin = early * 2 > records.size() ? Origin::connect : Origin::last_response;
  if (measure.runs_from.origin == Origin::connect) {
    measure.from = "connect";
    measure.note = fmt::format(
        "{}/{} connections were ended before their last request although each was reused "
        "within the idle deadline",
        early, records.size());
  }
  return measure;
}

reports::SurveyMeasure read_next_head(const MeasureHead& head,
                                      const std::vector<ConnectionRecord>& records,
                                      std::optional<double> header, std::optional<double> idle,
                                      double slack) {
  auto measure = summarize(head, each(records, from_last_send), slack);
  if (measure.ending.way == Way::open) {
    measure.runs_from.origin = Origin::never;
    return measure;
  }
  if (!measure.seconds) return measure;
  // The same connections' times from the first response, for the other origin.
  std::vector<double> from_response;
  for (const auto& record : records) {
    if (auto t = from_first_response(record); t.seconds && t.ending == measure.ending) {
      from_response.push_back(*t.seconds);
    }
  }
  const auto near = [&](double t, std::optional<double> deadline) {
    return deadline && std::abs(t - *deadline) <= std::max(slack, *deadline / 10);
  };
  const double since_first_byte = measure.seconds->median;
  if (near(since_first_byte, header)) {
    measure.runs_from.origin = Origin::first_byte;
  } else if (!from_response.empty() &&
             (near(median_of(from_response), header) || near(median_of(from_response), idle))) {
    measure.runs_from.origin = Origin::last_response;
  } else {
    measure.runs_from.origin = Origin::other;
  }
  return measure;
}

reports::SurveyMeasure read_send_slow(const MeasureHead& head,
                                      const std::vector<ConnectionRecord>& records, double send,
                                      double slack, double max_wait) {
  std::vector<Timed> timed;
  std::size_t whole = 0;
  double slowest_whole = 0;
  for (const auto& record : records) {
    const bool complete = !record.responses.empty() && record.responses.front().complete;
    if (complete) {
      ++whole;
      slowest_whole = std::max(slowest_whole, in_seconds(*record.responses.front().complete));
      timed.push_back({.ending = {.way = Way::answered},
                       .seconds = in_seconds(*record.responses.front().complete)});
    } else {
      // A stream (HTTP/2) is cut by a RST_STREAM as much as by the connection's end.
      timed.push_back(record.h2 ? stream_end(record) : from_first_send(record));
    }
  }
  auto measure = summarize(head, timed, slack);
  if (measure.ending.way == Way::answered) {
    if (measure.seconds && measure.seconds->median > send + slack) {
      measure.extends = true;
    } else {
      measure.note = fmt::format(
          "the response was read whole in {}, within the stopped reader's deadline ({}): "
          "nothing to tell",
          seconds_text(slowest_whole), seconds_text(send));
    }
    return measure;
  }
  if (measure.ending.way == Way::open) {
    measure.extends = true;
    measure.note = fmt::format("still reading at {}", seconds_text(max_wait));
    return measure;
  }
  // The server's cuts: a reader still taking bytes at its cut was cut despite its progress,
  // whenever that came (the client sees a close only once it has read what was queued
  // before it, so its time is no sign of a later deadline).
  std::size_t cut = 0;
  std::size_t reading = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (timed[i].ending != measure.ending || not_the_servers(measure.ending)) continue;
    ++cut;
    if (read_up_to_the_cut(records[i], send)) ++reading;
  }
  if (cut > 0 && reading * 2 > cut) {
    measure.extends = false;
    measure.note = fmt::format(
        "cut while the reader made progress ({}/{} connections still taking bytes at the "
        "cut): the send deadline runs over the whole response, not from the last write",
        reading, cut);
    return measure;
  }
  if (measure.seconds) measure.extends = measure.seconds->median > send + slack;
  return measure;
}

reports::SurveyMeasure read_header_from(const MeasureHead& head,
                                        const std::vector<ConnectionRecord>& records, double header,
                                        double slack) {
  auto measure = summarize(head, each(records, from_connect), slack);
  if (!measure.seconds) return measure;
  std::vector<double> after_handshake;
  for (const auto& record : records) {
    const auto t = from_connect(record);
    if (t.seconds && t.ending == measure.ending && record.tls && record.tls->handshake_done) {
      after_handshake.push_back(*t.seconds - in_seconds(*record.tls->handshake_done));
    }
  }
  const double tolerance = std::max(slack, header / 10);
  if (std::abs(measure.seconds->median - header) <= tolerance) {
    measure.runs_from.origin = Origin::connect;
  } else if (!after_handshake.empty() &&
             std::abs(median_of(after_handshake) - header) <= tolerance) {
    measure.runs_from.origin = Origin::handshake;
  } else {
    measure.runs_from.origin = Origin::other;
  }
  return measure;
}

reports::SurveyMeasure read_h2_idle(const MeasureHead& head,
                                    const std::vector<ConnectionRecord>& records, double slack) {
  auto measure = summarize(head, each(records, from_first_response), slack);
  std::size_t goaways = 0;
  std::optional<std::uint32_t> code;
  std::vector<double> closed_after;  // from the GOAWAY to the close
  for (const auto& record : records) {
    if (record.h2 && record.h2->goaway) {
      ++goaways;
      code = record.h2->goaway->code;
      if (ended_by_server(record)) {
        closed_after.push_back(in_seconds(record.ended_at - record.h2->goaway->at));
      }
    }
  }
  if (!closed_after.empty() && median_of(closed_after) > slack) {
    measure.note = fmt::format("timed to its GOAWAY; the close came {} later",
                               seconds_text(median_of(closed_after)));
  }
  if (measure.ending.way != Way::open) {
    measure.runs_from = goaway_of(goaways * 2 > records.size() ? code : std::nullopt);
  }
  return measure;
}

reports::SurveyMeasure read_flood(const MeasureHead& head,
                                  const std::vector<ConnectionRecord>& records, std::size_t bound,
                                  double slack) {
  std::size_t most_frames = 0;
  std::optional<std::size_t> frames_at_goaway;
  std::optional<std::uint32_t> code;
  for (const auto& record : records) {
    if (record.h2 && record.h2->goaway) {
      frames_at_goaway = std::max(frames_at_goaway.value_or(0), record.h2->goaway->frames_sent);
      code = record.h2->goaway->code;
    }
    if (record.h2) most_frames = std::max(most_frames, record.h2->frames_sent);
  }
  // Timed to the GOAWAY where one came, whether or not the server then closed; a stream the
  // server reset is not the flood's end.
  std::vector<Timed> timed;
  for (const auto& record : records) timed.push_back(goaway_or_end(record));
  auto measure = summarize(head, timed, slack);
  const bool ended = !not_the_servers(measure.ending);
  if (ended) measure.runs_from = goaway_of(code);
  // Every frame out before the server's GOAWAY (or with none): the flood went through, and
  // whatever ended the connection came after it (its idle deadline, say).
  const std::size_t before_end = frames_at_goaway.value_or(most_frames);
  if (!ended || before_end >= bound) {
    measure.exposure =
        ended
            ? fmt::format(
                  "all {} frames of the flood went through; the connection was ended "
                  "only after it, at {}",
                  before_end,
                  measure.seconds ? seconds_text(measure.seconds->median) : std::string("its end"))
            : fmt::format(
                  "all {} frames of the flood went through; the server never ended "
                  "the connection",
                  most_frames);
    return measure;
  }
  measure.note =
      frames_at_goaway
          ? fmt::format("ended after {} of its frames (its bound: {})", *frames_at_goaway, bound)
          : fmt::format(
                "closed after {} of its frames, without a GOAWAY (its bound: "
                "{})",
                most_frames, bound);
  return measure;
}

}  // namespace loiter::suites::survey
