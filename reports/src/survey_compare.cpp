// compare_surveys(): each measure of two surveys, its deadline against the slack, its ending,
// its progress and its clock's origin against what the baseline would promise.
#include "loiter/reports/survey_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "loiter/reports/number_text.hpp"

namespace loiter::reports {

namespace {

using Row = SurveyComparisonRow;
using Way = SurveyEnding::Way;
using Origin = RunsFrom::Origin;

// The ending of a probe the server answered whole (a slow reader given all of its response):
// its time is the exchange's, no deadline's.
bool answered(const SurveyMeasure& m) { return m.ending.way == Way::answered; }

// What a row shows of a word: "-" for none.
std::string dash_if_empty(std::string word) { return word.empty() ? "-" : word; }

std::string seconds_text(const SurveyMeasure& m) {
  return m.seconds ? fmt::format("{:.2f}", m.seconds->median) : "open";
}

// The deadline: grown past the slack, or gone (no ending within the wait), is a regression.
std::optional<Row> deadline_row(const SurveyMeasure& b, const SurveyMeasure& c, double slack,
                                double current_wait) {
  if (!b.seconds && !c.seconds && b.ending.way == Way::none && c.ending.way == Way::none) {
    return std::nullopt;
  }
  Row row{.measure = b.id,
          .what = "deadline",
          .unit = "s",
          .baseline = seconds_text(b),
          .current = seconds_text(c)};
  if (answered(b) || answered(c)) {
    row.what = "time";
    row.note = "answered whole: no deadline met";
  } else if (b.seconds && c.seconds) {
    const double grown = c.seconds->median - b.seconds->median;
    const double limit = b.seconds->median + slack;
    row.delta = std::abs(grown) < 0.005 ? "+0.00" : fmt::format("{:+.2f}", grown);
    row.regressed = c.seconds->median > limit;
    row.note = grown < -slack ? "shrank" : fmt::format("limit {:.2f} s", limit);
  } else if (b.seconds) {
    row.delta = "time→open";
    row.regressed = true;
    row.note = fmt::format("no ending within {} s now", plain_number(current_wait));
  } else if (c.seconds) {
    row.delta = "open→time";
    row.note = "a deadline now";
  }
  return row;
}

// Whether `ending` keeps the promise a target file makes: a "close" is kept by a 408 and
// then the close too.
bool keeps(const SurveyEnding& ending, TimeoutAnswer promise) {
  const auto kept = answer_of(ending);
  return kept != TimeoutAnswer::none && (kept == promise || promise == TimeoutAnswer::close);
}

// The ending. An ending that no longer keeps the promise the baseline's ending makes is a
// regression: a 408 lost (408+close → close) or another status now (close → 400+close). A
// target file drafted from the baseline (`loiter survey --write`) promises "408", and loiter
// check would find the current server's plain close a wrong ending, which fails the run; the
// answer is part of what a server promises, not a detail. Gaining a 408, or a reset for a close,
// keeps the promise. An ending gone "open" is the deadline row's regression, not this one's;
// one now "answered" (the probe's exchange completed) met no deadline to answer.
std::optional<Row> ending_row(const SurveyMeasure& b, const SurveyMeasure& c) {
  if (b.ending.way == Way::none && c.ending.way == Way::none) return std::nullopt;
  Row row{.measure = b.id,
          .what = "ending",
          .baseline = dash_if_empty(to_string(b.ending)),
          .current = dash_if_empty(to_string(c.ending))};
  if (b.ending == c.ending) return row;
  row.delta = fmt::format("{}→{}", row.baseline, row.current);
  const auto promised = answer_of(b.ending);
  if (promised == TimeoutAnswer::none || c.ending.way == Way::open || answered(c) ||
      c.ending.way == Way::none) {
    return row;
  }
  row.regressed = !keeps(c.ending, promised);
  if (row.regressed) {
    row.note = promised == TimeoutAnswer::respond_408 ? "lost its 408: a \"408\" promise is broken"
                                                      : "a \"close\" promise is broken";
  }
  return row;
}

// Progress that now extends a deadline lets a trickle hold a connection as long as it trickles.
std::optional<Row> extends_row(const SurveyMeasure& b, const SurveyMeasure& c) {
  if (!b.extends && !c.extends) return std::nullopt;
  const auto shown = [](const std::optional<bool>& v) -> std::string {
    return v ? (*v ? "true" : "false") : "-";
  };
  Row row{.measure = b.id,
          .what = "extends",
          .baseline = shown(b.extends),
          .current = shown(c.extends)};
  if (row.baseline != row.current) row.delta = fmt::format("{}→{}", row.baseline, row.current);
  row.regressed = b.extends == false && c.extends == true;
  if (row.regressed) row.note = "progress now extends the deadline";
  return row;
}

// A clock's origin that moved where a stalled client gains time (or a well-behaved one is cut):
// a second head never timed out; an idle deadline from connect, cutting a connection in use;
// the header deadline from the handshake's end; an idle h2 close without its GOAWAY.
bool origin_regressed(std::string_view id, Origin before, Origin now) {
  if (id == "next-head") return before != Origin::never && now == Origin::never;
  if (id == "idle-reused") return before == Origin::last_response && now == Origin::connect;
  if (id == "tls-header-from") return before == Origin::connect && now == Origin::handshake;
  if (id == "h2-idle") {
    return before != Origin::none && before != Origin::no_goaway && now == Origin::no_goaway;
  }
  return false;
}

std::optional<Row> runs_from_row(const SurveyMeasure& b, const SurveyMeasure& c) {
  if (b.runs_from.origin == Origin::none && c.runs_from.origin == Origin::none) {
    return std::nullopt;
  }
  Row row{.measure = b.id,
          .what = "runs from",
          .baseline = dash_if_empty(to_string(b.runs_from)),
          .current = dash_if_empty(to_string(c.runs_from))};
  if (b.runs_from == c.runs_from) return row;
  row.delta = fmt::format("{}→{}", row.baseline, row.current);
  row.regressed = origin_regressed(b.id, b.runs_from.origin, c.runs_from.origin);
  if (row.regressed) row.note = "a stalled or reused connection is held to less than before";
  return row;
}

Row alone_row(const SurveyMeasure& m, bool in_baseline) {
  return {.measure = m.id,
          .what = "measured",
          .baseline = in_baseline ? "yes" : "-",
          .current = in_baseline ? "-" : "yes",
          .note = in_baseline ? "not in the current survey" : "not in the baseline"};
}

// Both measured, or one says why not: then there is nothing to compare.
void compare_measure(const SurveyMeasure& b, const SurveyMeasure& c, const Survey& current,
                     SurveyComparison& result) {
  if (!b.not_measured.empty() || !c.not_measured.empty()) {
    result.rows.push_back({.measure = b.id,
                           .what = "measured",
                           .baseline = b.not_measured.empty() ? "yes" : "no",
                           .current = c.not_measured.empty() ? "yes" : "no",
                           .note = c.not_measured.empty() ? b.not_measured : c.not_measured});
    return;
  }
  ++result.shared_measures;
  for (auto row : {deadline_row(b, c, result.slack, current.max_wait), ending_row(b, c),
                   extends_row(b, c), runs_from_row(b, c)}) {
    if (row) result.rows.push_back(std::move(*row));
  }
}

void add_warnings(const Survey& b, const Survey& c, SurveyComparison& result) {
  result.same_target = b.target == c.target;
  const auto differ = [&](std::string_view what, const std::string& x, const std::string& y) {
    if (x != y) {
      result.warnings.push_back(
          fmt::format("the surveys {}: {} (baseline), {} (current)", what, x, y));
    }
  };
  differ("are of different targets", b.target, c.target);
  differ("spoke different protocols", std::string(to_string(b.protocol)) + (b.tls ? " over TLS" : ""),
         std::string(to_string(c.protocol)) + (c.tls ? " over TLS" : ""));
  differ("were made by different loiter versions", b.loiter_version, c.loiter_version);
  if (b.interrupted) result.warnings.push_back("the baseline survey was interrupted: partial");
  if (c.interrupted) result.warnings.push_back("the current survey was interrupted: partial");
}

// A running server named by its address is said once, as the survey's own title says it.
std::string title(const Survey& s) {
  if (s.target == s.endpoint) {
    return fmt::format("{} against {} ({})", s.loiter_version, s.endpoint, s.started);
  }
  return fmt::format("{} against {} at {} ({})", s.loiter_version, s.target, s.endpoint, s.started);
}

}  // namespace

SurveyComparison compare_surveys(const Survey& baseline, const Survey& current) {
  SurveyComparison result{.baseline_survey = title(baseline),
                          .current_survey = title(current),
                          .slack = std::max({baseline.slack, current.slack, kSurveyMinimumSlack})};
  for (const auto& b : baseline.measures) {
    if (const auto* c = find_measure(current, b.id)) {
      compare_measure(b, *c, current, result);
    } else {
      result.rows.push_back(alone_row(b, true));
    }
  }
  for (const auto& c : current.measures) {
    if (find_measure(baseline, c.id) == nullptr) result.rows.push_back(alone_row(c, false));
  }
  result.regressed = std::ranges::any_of(result.rows, &SurveyComparisonRow::regressed);
  add_warnings(baseline, current, result);
  return result;
}

}  // namespace loiter::reports
