#include "read_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace loiter::suites::survey {

namespace {

using clients::ConnectionRecord;
using clients::Ending;

double in_seconds(clients::Duration d) { return std::chrono::duration<double>(d).count(); }

bool ended_by_server(const ConnectionRecord& record) {
  return record.ending == Ending::close || record.ending == Ending::reset ||
         record.ending == Ending::alert;
}

// When the server's ending began: its GOAWAY where one came first (HTTP/2: it may close a
// while later, waiting for the client to go first), else the ending itself.
clients::Duration ending_began(const ConnectionRecord& record) {
  if (record.h2 && record.h2->goaway && record.h2->goaway->at <= record.ended_at) {
    return record.h2->goaway->at;
  }
  return record.ended_at;
}

// The ending and its time from `origin` (since connect); open and the client's own endings
// have no time.
Timed timed_from(const ConnectionRecord& record, std::optional<clients::Duration> origin) {
  Timed timed{.ending = clients::ending_label(record)};
  if (ended_by_server(record) && origin) {
    timed.seconds = std::max(0.0, in_seconds(ending_began(record) - *origin));
  }
  return timed;
}

// Endings ranked for the figure: the server's own first, then open, then the rest.
int rank(const std::string& ending) {
  if (ending == "open") return 1;
  if (ending == "connect-failed" || ending.starts_with("client-")) return 2;
  return 0;
}

double median_of(std::vector<double> values) {
  std::ranges::sort(values);
  const auto n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

std::string seconds_text(double seconds) {
  if (seconds >= 100) return fmt::format("{:.0f} s", seconds);
  return fmt::format("{:.2f} s", seconds);
}

reports::SurveyMeasure summarize(const MeasureHead& head, const std::vector<Timed>& timed,
                                 double slack) {
  reports::SurveyMeasure measure{.id = head.id,
                                 .title = head.title,
                                 .kind = head.kind,
                                 .from = head.from,
                                 .interval = head.interval,
                                 .connections = timed.size()};
  for (const auto& t : timed) {
    auto it = std::ranges::find(measure.endings, t.ending, &reports::EndingCount::ending);
    if (it == measure.endings.end()) {
      measure.endings.push_back({.ending = t.ending, .count = 1});
    } else {
      ++it->count;
    }
  }
  std::ranges::stable_sort(measure.endings, [](const auto& a, const auto& b) {
    if (rank(a.ending) != rank(b.ending)) return rank(a.ending) < rank(b.ending);
    return a.count > b.count;
  });
  // The most common ending by the server wins if at least as common as any other; else the
  // most common overall.
  const auto most = std::ranges::max_element(measure.endings, {}, &reports::EndingCount::count);
  if (most == measure.endings.end()) return measure;
  measure.ending =
      measure.endings.front().count >= most->count ? measure.endings.front().ending : most->ending;
  std::vector<double> times;
  std::size_t same = 0;
  for (const auto& t : timed) {
    if (t.ending != measure.ending) continue;
    ++same;
    if (t.seconds) times.push_back(*t.seconds);
  }
  if (times.empty()) {
    measure.agreed = same;
    return measure;
  }
  const double median = median_of(times);
  measure.seconds = reports::Spread{.min = *std::ranges::min_element(times),
                                    .median = median,
                                    .max = *std::ranges::max_element(times)};
  const double tolerance = std::max(slack, median / 10);
  measure.agreed = static_cast<std::size_t>(
      std::ranges::count_if(times, [&](double t) { return std::abs(t - median) <= tolerance; }));
  return measure;
}

reports::SurveyMeasure not_measured(const MeasureHead& head, std::string reason) {
  return {.id = head.id,
          .title = head.title,
          .kind = head.kind,
          .from = head.from,
          .interval = head.interval,
          .not_measured = std::move(reason)};
}

Timed from_connect(const ConnectionRecord& record) {
  return timed_from(record, clients::Duration{});
}

Timed from_first_send(const ConnectionRecord& record) {
  if (record.sends.empty()) return timed_from(record, std::nullopt);
  return timed_from(record, record.sends.front().at);
}

Timed from_last_send(const ConnectionRecord& record) {
  if (record.sends.empty()) return timed_from(record, std::nullopt);
  return timed_from(record, record.sends.back().at);
}

Timed from_first_response(const ConnectionRecord& record) {
  if (record.responses.empty()) return timed_from(record, std::nullopt);
  return timed_from(record, record.responses.front().complete);
}

Timed from_last_response(const ConnectionRecord& record) {
  const auto* last = record.last_complete_response();
  return timed_from(record, last ? last->complete : std::nullopt);
}

Timed h2_from_connect(const ConnectionRecord& record) {
  if (record.h2 && !record.h2->resets.empty() &&
      (!ended_by_server(record) || record.h2->resets.front().at <= record.ended_at)) {
    return {.ending = "rst-stream", .seconds = in_seconds(record.h2->resets.front().at)};
  }
  if (record.h2 && record.h2->goaway && !ended_by_server(record)) {
    return {.ending = "goaway", .seconds = in_seconds(record.h2->goaway->at)};
  }
  return from_connect(record);
}

std::vector<Timed> each(const std::vector<ConnectionRecord>& records,
                        Timed (*read)(const ConnectionRecord&)) {
  std::vector<Timed> timed;
  timed.reserve(records.size());
  for (const auto& record : records) timed.push_back(read(record));
  return timed;
}

std::vector<Timed> send_stopped(const std::vector<ConnectionRecord>& records,
                                const ServerCloses& closes) {
  std::vector<Timed> timed;
  for (const auto& record : records) {
    if (record.ending == Ending::connect_failed) {
      timed.push_back({.ending = "connect-failed"});
      continue;
    }
    const std::optional<double> stalled =
        record.pause ? std::optional(in_seconds(record.pause->filled)) : std::nullopt;
    if (ended_by_server(record) && (!record.pause || record.pause->ended_while_paused)) {
      timed.push_back(
          timed_from(record, record.pause ? std::optional(record.pause->filled) : std::nullopt));
      continue;
    }
    const auto close = closes.find(record.source);
    if (close == closes.end()) {
      // Whole before it stopped (the response fit the buffers), or still open.
      timed.push_back({.ending = record.responses.empty() || !record.responses.front().complete
                                     ? "open"
                                     : "answered"});
      continue;
    }
    Timed t{.ending = close->second.ending};
    if (stalled) t.seconds = std::max(0.0, close->second.seconds - *stalled);
    timed.push_back(t);
  }
  return timed;
}

void judge_progress(reports::SurveyMeasure& progress, const reports::SurveyMeasure& stalled,
                    const std::string& holds, double slack, double max_wait) {
  if (!progress.not_measured.empty()) return;
  if (!stalled.seconds) {
    progress.note = fmt::format("nothing to compare: {} was never ended", stalled.title);
    return;
  }
  const bool open = progress.ending == "open";
  progress.extends =
      open || (progress.seconds && progress.seconds->median > stalled.seconds->max + slack);
  if (!*progress.extends) return;
  if (open) {
    progress.exposure = fmt::format(
        "{} holds {} open for as long as the client likes (still "
        "open at {})",
        progress.interval, holds, seconds_text(max_wait));
  } else if (progress.seconds) {
    progress.exposure = fmt::format(
        "{} holds {} open {} against {} without progress: progress extends it", progress.interval,
        holds, seconds_text(progress.seconds->median), seconds_text(stalled.seconds->median));
  }
}

void expose_if_open(reports::SurveyMeasure& measure, const std::string& exposure, double max_wait) {
  if (measure.not_measured.empty() && measure.ending == "open") {
    measure.exposure = fmt::format("{} (none within {})", exposure, seconds_text(max_wait));
  }
}

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
  measure.runs_from = early * 2 > records.size() ? "connect" : "last-response";
  if (measure.runs_from == "connect") {
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
  if (measure.ending == "open") {
    measure.runs_from = "never";
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
    measure.runs_from = "first-byte";
  } else if (!from_response.empty() &&
             (near(median_of(from_response), header) || near(median_of(from_response), idle))) {
    measure.runs_from = "last-response";
  } else {
    measure.runs_from = "other";
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
      timed.push_back(
          {.ending = "answered", .seconds = in_seconds(*record.responses.front().complete)});
    } else {
      timed.push_back(from_first_send(record));
    }
  }
  auto measure = summarize(head, timed, slack);
  if (measure.ending == "answered") {
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
  if (measure.ending == "open") {
    measure.extends = true;
    measure.note = fmt::format("still reading at {}", seconds_text(max_wait));
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
    measure.runs_from = "connect";
  } else if (!after_handshake.empty() &&
             std::abs(median_of(after_handshake) - header) <= tolerance) {
    measure.runs_from = "handshake";
  } else {
    measure.runs_from = "other";
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
  if (measure.ending != "open") {
    measure.runs_from =
        goaways * 2 > records.size() && code ? clients::h2_error_name(*code) : "none";
  }
  return measure;
}

reports::SurveyMeasure read_flood(const MeasureHead& head,
                                  const std::vector<ConnectionRecord>& records, std::size_t bound,
                                  double slack) {
  std::vector<Timed> timed;
  std::size_t most_frames = 0;
  std::optional<std::size_t> frames_at_goaway;
  std::optional<std::uint32_t> code;
  for (const auto& record : records) {
    if (record.h2 && record.h2->goaway) {
      const auto& goaway = *record.h2->goaway;
      timed.push_back({.ending = clients::ending_label(record), .seconds = in_seconds(goaway.at)});
      frames_at_goaway = std::max(frames_at_goaway.value_or(0), goaway.frames_sent);
      code = goaway.code;
    } else {
      timed.push_back(from_connect(record));
    }
    if (record.h2) most_frames = std::max(most_frames, record.h2->frames_sent);
  }
  auto measure = summarize(head, timed, slack);
  const bool ended = measure.ending != "open" && !measure.ending.starts_with("client-");
  measure.runs_from = ended ? (code ? clients::h2_error_name(*code) : "none") : "";
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
