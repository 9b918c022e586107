// compare(): verdicts and key figures of two runs, each figure against its threshold, and
// each scenario's findings by code: one that appeared is a regression, one gone an improvement.
#include "loiter/reports/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "loiter/reports/number_text.hpp"

namespace loiter::reports {

namespace {

// Seconds to the millisecond, anything else as it is.
std::string shown(const std::optional<double>& value, std::string_view unit,
                  std::string_view sign = "") {
  if (!value) return "-";
  if (unit == "s")
    return sign.empty() ? fmt::format("{:.3f}", *value) : fmt::format("{:+.3f}", *value);
  return sign.empty() ? plain_number(*value) : signed_number(*value);
}

// FDs the server still held above its baseline once the clients were done.
std::optional<double> fds_excess(const ScenarioReport& s) {
  const auto baseline = figure(s, "FDs", "baseline");
  auto after = figure(s, "FDs", "recovered");
  if (!after) after = figure(s, "FDs", "after");
  if (!baseline || !after) return std::nullopt;
  return *after - *baseline;
}

struct FigureRule {
  std::string what;
  std::string unit;
  std::function<std::optional<double>(const ScenarioReport&)> read;
  std::function<double(double baseline, const Thresholds&)> limit;
};

std::vector<FigureRule> rules() {
  return {
      {"closure max", "s", [](const auto& s) { return figure(s, "closure", "max"); },
       [](double b, const Thresholds& t) { return b + t.closure_max_plus_s; }},
      {"p99", "ms", [](const auto& s) { return figure(s, "latency", "p99"); },
       [](double b, const Thresholds& t) { return std::max(b * t.p99_factor, b + t.p99_plus_ms); }},
      {"FDs left", "", fds_excess,
       [](double b, const Thresholds& t) { return b + t.fds_after_plus; }},
      {"RSS peak", "KiB", [](const auto& s) { return figure(s, "RSS", "peak"); },
       [](double b, const Thresholds& t) { return b * t.rss_peak_factor; }},
  };
}

ComparisonRow verdict_row(const ScenarioReport& b, const ScenarioReport& c) {
  const bool worse =
      b.status == Status::pass && (c.status == Status::fail || c.status == Status::error);
  return {.scenario = b.id,
          .what = "verdict",
          .unit = "",
          .baseline = std::string(to_string(b.status)),
          .current = std::string(to_string(c.status)),
          .delta = b.status == c.status
                       ? ""
                       : fmt::format("{}→{}", to_string(b.status), to_string(c.status)),
          .regressed = worse,
          .note = {}};
}

std::optional<ComparisonRow> figure_row(const FigureRule& rule, const ScenarioReport& b,
                                        const ScenarioReport& c, const Thresholds& t) {
  const auto before = rule.read(b);
  const auto now = rule.read(c);
  if (!before && !now) return std::nullopt;
  ComparisonRow row{.scenario = b.id,
                    .what = rule.what,
                    .unit = rule.unit,
                    .baseline = shown(before, rule.unit),
                    .current = shown(now, rule.unit),
                    .delta = "",
                    .regressed = false,
                    .note = {}};
  if (before && now) {
    const double limit = rule.limit(*before, t);
    row.delta = shown(*now - *before, rule.unit, "+");
    row.regressed = *now > limit;
    row.note = "limit " + shown(limit, rule.unit);
  } else if (before) {
    row.note = "not measured in the current run";
  }
  return row;
}

// A finding's key within its scenario: its code, and the kind it is about in a mix.
std::string finding_key(const Finding& f) {
  return f.subject.empty() ? f.code : fmt::format("{} ({})", f.code, f.subject);
}

// The first finding of `s` with `key`, if any.
const Finding* with_key(const ScenarioReport& s, const std::string& key) {
  const auto found = std::ranges::find(s.findings, key, finding_key);
  return found == s.findings.end() ? nullptr : &*found;
}

bool coded(const ScenarioReport& s) {
  return std::ranges::none_of(s.findings, [](const Finding& f) { return f.code == codes::kText; });
}

// One row per finding key in `from` and not in `other`: appeared (a regression) when `from`
// is the current run, gone (an improvement) when it is the baseline.
void finding_rows(const ScenarioReport& from, const ScenarioReport& other, bool appeared,
                  std::vector<ComparisonRow>& rows) {
  std::vector<std::string> seen;
  for (const auto& f : from.findings) {
    const auto key = finding_key(f);
    if (with_key(other, key) != nullptr || std::ranges::find(seen, key) != seen.end()) continue;
    seen.push_back(key);
    rows.push_back({.scenario = from.id,
                    .what = "finding " + key,
                    .unit = "",
                    .baseline = appeared ? "-" : "found",
                    .current = appeared ? "found" : "-",
                    .delta = appeared ? "appeared" : "gone",
                    .regressed = appeared,
                    .note = appeared ? "appeared: " + text(f) : "improved"});
  }
}

// The findings of one scenario in both runs, by code; a run whose findings have no codes
// (a loiter-run/2 document) cannot be diffed by code: one row says so.
void compare_findings(const ScenarioReport& b, const ScenarioReport& c,
                      std::vector<ComparisonRow>& rows) {
  if (!coded(b) || !coded(c)) {
    rows.push_back({.scenario = b.id,
                    .what = "findings",
                    .unit = "",
                    .baseline = std::to_string(b.findings.size()),
                    .current = std::to_string(c.findings.size()),
                    .delta = "",
                    .regressed = false,
                    .note = "not compared by code: a run's findings have none (loiter-run/2)"});
    return;
  }
  finding_rows(c, b, true, rows);
  finding_rows(b, c, false, rows);
}

// Runs of different targets or loiter versions are compared all the same, but said to be.
void add_warnings(const RunReport& baseline, const RunReport& current, Comparison& result) {
  result.same_target = baseline.target == current.target;
  if (!result.same_target) {
    result.warnings.push_back(
        fmt::format("the runs are of different targets: {} (baseline), {} "
                    "(current)",
                    baseline.target, current.target));
  }
  if (baseline.loiter_version != current.loiter_version) {
    result.warnings.push_back(
        fmt::format("the runs were made by different loiter versions: {} "
                    "(baseline), {} (current)",
                    baseline.loiter_version, current.loiter_version));
  }
}

}  // namespace

Comparison compare(const RunReport& baseline, const RunReport& current,
                   const Thresholds& thresholds) {
  Comparison result{.baseline_run = fmt::format("{} against {} ({})", baseline.loiter_version,
                                                baseline.target, baseline.started_at),
                    .current_run = fmt::format("{} against {} ({})", current.loiter_version,
                                               current.target, current.started_at)};
  for (const auto& b : baseline.scenarios) {
    const auto c = std::ranges::find(current.scenarios, b.id, &ScenarioReport::id);
    if (c == current.scenarios.end()) {
      result.rows.push_back({.scenario = b.id,
                             .what = "verdict",
                             .unit = "",
                             .baseline = std::string(to_string(b.status)),
                             .current = "-",
                             .delta = "",
                             .regressed = false,
                             .note = "not in the current run"});
      continue;
    }
    ++result.shared_scenarios;
    result.rows.push_back(verdict_row(b, *c));
    for (const auto& rule : rules()) {
      if (auto row = figure_row(rule, b, *c, thresholds)) result.rows.push_back(std::move(*row));
    }
    compare_findings(b, *c, result.rows);
  }
  for (const auto& c : current.scenarios) {
    if (std::ranges::find(baseline.scenarios, c.id, &ScenarioReport::id) !=
        baseline.scenarios.end())
      continue;
    result.rows.push_back({.scenario = c.id,
                           .what = "verdict",
                           .unit = "",
                           .baseline = "-",
                           .current = std::string(to_string(c.status)),
                           .delta = "",
                           .regressed = false,
                           .note = "not in the baseline"});
  }
  result.regressed = std::ranges::any_of(result.rows, &ComparisonRow::regressed);
  add_warnings(baseline, current, result);
  return result;
}

}  // namespace loiter::reports
