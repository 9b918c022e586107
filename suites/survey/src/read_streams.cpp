#include "read_streams.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace loiter::suites::survey {

using clients::ConnectionRecord;
using clients::Ending;
using Way = reports::SurveyEnding::Way;

namespace {

constexpr double kFirstRung = 0.75;
constexpr double kLastRungShare = 0.9;
constexpr std::size_t kMostRungs = 24;

struct Candidate {
  clients::Duration at{};
  reports::SurveyEnding ending;
};

// What one bracket connection said: held or gone at its probe's time from the origin, or an
// ending the server sent (timed), or nothing (no probe yet, never connected).
struct Said {
  enum class What { nothing, held, gone, ended } what = What::nothing;
  double at = 0;  // s from the origin
};

std::optional<clients::Duration> origin_of(const ConnectionRecord& r, BracketFrom from) {
  if (from == BracketFrom::first_initial) return clients::Duration{};
  if (!r.h3) return std::nullopt;
  if (r.h3->last_sent) return r.h3->last_sent;
  return r.h3->handshake_done;
}

Said said(const ConnectionRecord& r, BracketFrom from) {
  const auto origin = origin_of(r, from);
  if (!r.h3 || !origin) return {};
  const bool aloud = r.h3->close.has_value() || r.h3->stateless_reset;
  if (aloud && ended_by_server(r)) {
    return {.what = Said::What::ended, .at = std::max(0.0, in_seconds(r.ended_at - *origin))};
  }
  if (r.h3->probes.empty()) return {};
  const double at = std::max(0.0, in_seconds(r.h3->probes.front().at - *origin));
  if (from == BracketFrom::first_initial) {
    switch (r.h3->remembered) {
      case clients::H3Remembered::remembered:
        return {.what = Said::What::held, .at = at};
      case clients::H3Remembered::forgotten:
      case clients::H3Remembered::silent:
        return {.what = Said::What::gone, .at = at};
      case clients::H3Remembered::unknown:
        return {};
    }
    return {};
  }
  if (r.h3->probes.front().answered) return {.what = Said::What::held, .at = at};
  if (r.ending == Ending::gone) return {.what = Said::What::gone, .at = at};
  return {};
}

}  // namespace

Timed stream_end(const ConnectionRecord& r) {
  std::optional<Candidate> first;
  const auto consider = [&first](clients::Duration at, reports::SurveyEnding ending) {
    if (!first || at < first->at) first = Candidate{.at = at, .ending = ending};
  };
  for (const auto& response : r.responses) {
    if (!response.complete) continue;
    const bool ok = response.status >= 200 && response.status < 300;
    consider(*response.complete, ok ? reports::SurveyEnding{.way = Way::answered}
                                    : reports::SurveyEnding{.way = Way::rst_stream,
                                                            .status = response.status});
    break;
  }
  if (r.h2 && !r.h2->resets.empty()) consider(r.h2->resets.front().at, {.way = Way::rst_stream});
  if (r.h3 && !r.h3->stream_ends.empty()) {
    consider(r.h3->stream_ends.front().at, {.way = Way::rst_stream});
  }
  if (ended_by_server(r)) {
    const bool goaway_first = r.h2 && r.h2->goaway && r.h2->goaway->at <= r.ended_at;
    consider(goaway_first ? r.h2->goaway->at : r.ended_at, survey_ending(r));
  } else if (r.h2 && r.h2->goaway) {
    consider(r.h2->goaway->at, {.way = Way::goaway});
  }
  if (!first) return {.ending = survey_ending(r)};
  Timed timed{.ending = first->ending};
  if (!r.sends.empty()) timed.seconds = std::max(0.0, in_seconds(first->at - r.sends.front().at));
  return timed;
}

std::string h3_codes(const std::vector<ConnectionRecord>& records) {
  std::map<std::string, std::size_t> counts;
  for (const auto& r : records) {
    if (!r.h3) continue;
    if (!r.h3->stream_ends.empty()) {
      const auto& end = r.h3->stream_ends.front();
      ++counts[fmt::format("{} {}", end.stop_sending ? "STOP_SENDING" : "RESET_STREAM",
                           clients::h3_error_name(end.code))];
    }
    if (r.h3->close) {
      ++counts["CONNECTION_CLOSE " +
               clients::h3_error_name(r.h3->close->code, r.h3->close->application)];
    } else if (r.h3->stateless_reset) {
      ++counts["a stateless reset"];
    }
  }
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::ranges::stable_sort(sorted, [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [what, n] : sorted) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", what, n);
  }
  return out;
}

std::vector<double> first_ladder(double max_wait) {
  std::vector<double> ladder;
  for (double t = kFirstRung; t <= max_wait * kLastRungShare; t *= 2) ladder.push_back(t);
  if (ladder.empty()) ladder.push_back(max_wait / 2);
  return ladder;
}

std::vector<double> refined_ladder(double held, double gone, std::size_t connections,
                                   double slack) {
  const double gap = gone - held;
  const auto wanted = static_cast<std::size_t>(std::max(0.0, std::ceil(gap / slack) - 1));
  const std::size_t n = std::clamp(wanted, connections, kMostRungs);
  std::vector<double> ladder;
  for (std::size_t i = 1; i <= n; ++i) {
    ladder.push_back(held + gap * static_cast<double>(i) / static_cast<double>(n + 1));
  }
  return ladder;
}

reports::SurveyMeasure read_bracket(const MeasureHead& head,
                                    const std::vector<ConnectionRecord>& records, BracketFrom from,
                                    double slack, const std::optional<reports::Spread>& before) {
  std::vector<Said> answers;
  std::vector<Timed> aloud;
  for (const auto& r : records) {
    const auto s = said(r, from);
    answers.push_back(s);
    if (s.what == Said::What::ended) aloud.push_back({.ending = survey_ending(r), .seconds = s.at});
  }
  const auto count = [&](Said::What what) {
    return static_cast<std::size_t>(
        std::ranges::count(answers, what, &Said::what));
  };
  const std::size_t held = count(Said::What::held);
  const std::size_t gone = count(Said::What::gone);
  auto measure = summarize(head, {}, slack);
  measure.connections = records.size();
  if (!aloud.empty() && aloud.size() >= gone) {
    auto timed = aloud;
    for (const auto& s : answers) {
      if (s.what == Said::What::held) timed.push_back({.ending = {.way = Way::open}});
      if (s.what == Said::What::gone) timed.push_back({.ending = {.way = Way::gone}});
    }
    measure = summarize(head, timed, slack);
    measure.connections = records.size();
  } else {
    std::optional<double> earliest_gone = before ? std::optional(before->max) : std::nullopt;
    double latest_held = before ? before->min : 0.0;
    for (const auto& s : answers) {
      if (s.what == Said::What::gone) earliest_gone = std::min(earliest_gone.value_or(s.at), s.at);
    }
    std::size_t late_held = 0;  // held past the earliest gone: the answers disagree
    for (const auto& s : answers) {
      if (s.what != Said::What::held) continue;
      if (earliest_gone && s.at >= *earliest_gone) {
        ++late_held;
      } else {
        latest_held = std::max(latest_held, s.at);
      }
    }
    if (held > 0) measure.endings.push_back({.ending = {.way = Way::open}, .count = held});
    if (gone > 0) measure.endings.push_back({.ending = {.way = Way::gone}, .count = gone});
    std::ranges::stable_sort(measure.endings, [](const auto& a, const auto& b) {
      return a.count > b.count;
    });
    measure.connections = held + gone;  // those that answered: a later rung may never ask
    measure.agreed = held + gone - late_held;
    if (earliest_gone) {
      measure.ending = {.way = Way::gone};
      measure.seconds = reports::Spread{.min = latest_held,
                                        .median = (latest_held + *earliest_gone) / 2,
                                        .max = *earliest_gone};
      measure.note = fmt::format(
          "still held at {}, gone at {} (one probe a connection, each at a time of its own): "
          "the deadline lies between",
          seconds_text(latest_held), seconds_text(*earliest_gone));
      if (late_held > 0) {
        measure.note += fmt::format("; {} connection{} still held later than that", late_held,
                                    late_held == 1 ? " was" : "s were");
      }
    } else if (held > 0) {
      measure.ending = {.way = Way::open};
      measure.note = fmt::format("still held at {}, the latest probe", seconds_text(latest_held));
    }
  }
  if (from == BracketFrom::last_packet) {
    std::vector<double> advertised;
    for (const auto& r : records) {
      if (r.h3 && r.h3->handshake_done && r.h3->idle_advertised) {
        advertised.push_back(in_seconds(*r.h3->idle_advertised));
      }
    }
    if (!advertised.empty()) measure.advertised = median_of(advertised);
  }
  if (const auto codes = h3_codes(records); !codes.empty()) {
    measure.note += (measure.note.empty() ? "" : "; ") + codes;
  }
  return measure;
}

bool bracket_done(const std::vector<ConnectionRecord>& records, const std::vector<double>& ladder) {
  std::optional<double> gone_at;
  for (std::size_t i = 0; i < records.size() && i < ladder.size(); ++i) {
    const auto& r = records[i];
    if (r.ending == Ending::gone || r.ending == Ending::close || r.ending == Ending::reset) {
      gone_at = std::min(gone_at.value_or(ladder[i]), ladder[i]);
    }
  }
  if (!gone_at) return false;
  for (std::size_t i = 0; i < records.size() && i < ladder.size(); ++i) {
    if (ladder[i] >= *gone_at) continue;
    const auto& r = records[i];
    const bool answered = r.ending != Ending::open ||
                          (r.h3 && !r.h3->probes.empty() && r.h3->probes.front().answered) ||
                          (r.h3 && r.h3->remembered != clients::H3Remembered::unknown);
    if (r.connect_start == clients::Clock::time_point{} || !answered) return false;
  }
  return true;
}

}  // namespace loiter::suites::survey
