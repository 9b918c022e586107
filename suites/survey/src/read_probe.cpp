#include "read_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace loiter::suites::survey {

using clients::ConnectionRecord;
using clients::Ending;
using Way = reports::SurveyEnding::Way;

double in_seconds(clients::Duration d) { return std::chrono::duration<double>(d).count(); }

bool ended_by_server(const ConnectionRecord& record) {
  return record.ending == Ending::close || record.ending == Ending::reset ||
         record.ending == Ending::alert || record.ending == Ending::gone;
}

namespace {

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
  Timed timed{.ending = survey_ending(record)};
  if (ended_by_server(record) && origin) {
    timed.seconds = std::max(0.0, in_seconds(ending_began(record) - *origin));
  }
  return timed;
}

// Endings ranked for the figure: the server's own first, then open, then the rest.
int rank(const reports::SurveyEnding& ending) {
  if (ending.way == Way::open) return 1;
  return not_the_servers(ending) ? 2 : 0;
}

Way way_of(Ending ending) {
  switch (ending) {
    case Ending::close:
      return Way::close;
    case Ending::reset:
      return Way::reset;
    case Ending::open:
      return Way::open;
    case Ending::connect_failed:
      return Way::connect_failed;
    case Ending::client_abort:
      return Way::client_abort;
    case Ending::client_close:
      return Way::client_close;
    case Ending::alert:
      return Way::alert;
    case Ending::gone:
      return Way::gone;
  }
  return Way::none;
}

}  // namespace

reports::SurveyEnding survey_ending(const ConnectionRecord& record) {
  const auto label = clients::ending_of(record);
  return {.way = way_of(label.ending), .status = label.status, .after_goaway = label.goaway};
}

bool not_the_servers(const reports::SurveyEnding& ending) {
  return ending.way == Way::open || ending.way == Way::connect_failed ||
         ending.way == Way::client_abort || ending.way == Way::client_close;
}

double median_of(std::vector<double> values) {
  std::ranges::sort(values);
  const auto n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

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

// The connection's end as the server began it, from connect: its GOAWAY where one came
// ("goaway" while the connection stayed open after it), else the ending.
Timed goaway_or_end(const ConnectionRecord& record) {
  if (record.h2 && record.h2->goaway && !ended_by_server(record)) {
    return {.ending = {.way = Way::goaway}, .seconds = in_seconds(record.h2->goaway->at)};
  }
  return from_connect(record);  // timed to a GOAWAY before the close (ending_began)
}

Timed h2_from_connect(const ConnectionRecord& record) {
  if (record.h2 && !record.h2->resets.empty() &&
      (!ended_by_server(record) || record.h2->resets.front().at <= record.ended_at)) {
    return {.ending = {.way = Way::rst_stream},
            .seconds = in_seconds(record.h2->resets.front().at)};
  }
  return goaway_or_end(record);
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
      timed.push_back({.ending = {.way = Way::connect_failed}});
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
      const bool whole = !record.responses.empty() && record.responses.front().complete;
      timed.push_back({.ending = {.way = whole ? Way::answered : Way::open}});
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
  const bool open = progress.ending.way == Way::open;
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
  if (measure.not_measured.empty() && measure.ending.way == Way::open) {
    measure.exposure = fmt::format("{} (none within {})", exposure, seconds_text(max_wait));
  }
}

}  // namespace loiter::suites::survey
