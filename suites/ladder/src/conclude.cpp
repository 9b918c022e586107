#include "loiter/suites/ladder/conclude.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "loiter/reports/number_text.hpp"

namespace loiter::suites::ladder {

namespace {

using reports::LadderStep;
using reports::LadderTrial;
using reports::Limit;
using reports::StepKind;

// 50000 -> "50,000".
std::string grouped(double value) { return reports::grouped_number(std::round(value)); }
std::string grouped(std::uint64_t value) { return grouped(static_cast<double>(value)); }

double per_second(std::uint64_t count, const LadderTrial& trial) {
  return trial.seconds > 0 ? static_cast<double>(count) / trial.seconds : 0;
}

// The figures a step's medians and the paired comparison both read of a trial.
double succeeded_rate(const LadderTrial& t) { return per_second(t.succeeded, t); }
double p99(const LadderTrial& t) { return t.p99_ms; }
double cpu_us_per_request(const LadderTrial& t) {
  return t.succeeded > 0 ? t.server_cpu_s * 1e6 / static_cast<double>(t.succeeded) : 0.0;
}

// Who ran out at a step that fell short (or any saturation step).
Limit limit_of(bool client_busy, bool server_busy) {
  if (!client_busy) return Limit::server;
  return server_busy ? Limit::both : Limit::client;
}

template <typename F>
std::vector<double> each(const std::vector<LadderTrial>& trials, F figure) {
  std::vector<double> values;
  values.reserve(trials.size());
  for (const auto& trial : trials) values.push_back(figure(trial));
  return values;
}

template <typename F>
double median_of(const std::vector<LadderTrial>& trials, F figure) {
  return median(each(trials, figure));
}

// Everything asked for was dispatched and answered 2xx.
bool complete(const LadderTrial& trial) {
  return trial.dispatched == trial.requested && trial.succeeded == trial.dispatched;
}

std::string busy_text(double busy) { return fmt::format("{:.0f}%", busy * 100); }

// What kept a step from being within (or a saturation step's shortfalls), for a person.
std::vector<std::string> shortfalls(const LadderStep& step, double p99_bound_ms) {
  std::vector<std::string> parts;
  if (step.kind == StepKind::rate && step.dispatched_rate < step.requested_rate * 0.999) {
    parts.push_back(fmt::format("dispatched {}/s of {}/s", grouped(step.dispatched_rate),
                                grouped(step.requested_rate)));
  }
  if (step.non_2xx > 0 || step.errors > 0) {
    std::map<std::string, std::uint64_t> kinds;
    for (const auto& trial : step.trials) {
      for (const auto& [kind, count] : trial.error_kinds) kinds[kind] += count;
    }
    std::string listed;
    for (const auto& [kind, count] : kinds) {
      listed += fmt::format("{}{} {}", listed.empty() ? "" : ", ", kind, grouped(count));
    }
    parts.push_back(fmt::format("{} non-2xx and {} without an answer{}", grouped(step.non_2xx),
                                grouped(step.errors), listed.empty() ? "" : " (" + listed + ")"));
  }
  if (step.kind == StepKind::rate && step.p99_ms > p99_bound_ms) {
    parts.push_back(fmt::format("p99 {} ms over the {} ms bound",
                                reports::plain_number(step.p99_ms, 3),
                                reports::plain_number(p99_bound_ms)));
  }
  return parts;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::ranges::sort(values);
  const auto n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void conclude_step(LadderStep& step, double p99_bound_ms) {
  const auto& trials = step.trials;
  if (trials.empty()) {  // the run was stopped before this step
    step = LadderStep{.kind = step.kind, .rate = step.rate, .connections = step.connections,
                      .note = "not run: the ladder was stopped before it"};
    return;
  }
  step.requested_rate = median_of(trials, [](const auto& t) { return per_second(t.requested, t); });
  step.dispatched_rate =
      median_of(trials, [](const auto& t) { return per_second(t.dispatched, t); });
  step.succeeded_rate = median_of(trials, succeeded_rate);
  step.p50_ms = median_of(trials, [](const auto& t) { return t.p50_ms; });
  step.p99_ms = median_of(trials, p99);
  step.server_cpu_us_per_request = median_of(trials, cpu_us_per_request);
  step.server_rss_peak_mib = median_of(trials, [](const auto& t) { return t.server_rss_peak_mib; });
  step.server_fds_peak =
      median_of(trials, [](const auto& t) { return static_cast<double>(t.server_fds_peak); });
  step.client_busy = median_of(trials, [](const auto& t) { return t.client_busy; });
  step.server_busy = median_of(trials, [](const auto& t) { return t.server_busy; });
  step.non_2xx = 0;
  step.errors = 0;
  for (const auto& trial : trials) {
    step.non_2xx += trial.non_2xx;
    step.errors += trial.errors;
  }
  const auto completed = std::ranges::count_if(trials, complete);
  const bool client_busy = step.client_busy >= kClientBusy;
  const bool server_busy = step.server_busy >= kServerBusy;
  const auto both_busy = [&] {
    return fmt::format("loiter's load thread wanting a CPU {} of the time and the server's CPUs {} "
                       "busy: this machine cannot tell whose limit it met",
                       busy_text(step.client_busy), busy_text(step.server_busy));
  };
  const auto missing = shortfalls(step, p99_bound_ms);
  step.note.clear();
  if (step.kind == StepKind::saturation) {
    step.within = false;
    step.limit = limit_of(client_busy, server_busy);
    if (step.limit == Limit::both) {
      step.note = fmt::format("both ran out: {}/s with {}", grouped(step.succeeded_rate), both_busy());
    } else if (client_busy) {
      step.note = fmt::format(
          "loiter's client ran out first (its load thread wanted a CPU {} of the time): {}/s is the "
          "client's ceiling, the server may do more",
          busy_text(step.client_busy), grouped(step.succeeded_rate));
    }
    if (!missing.empty()) step.note += (step.note.empty() ? "" : "; ") + joined(missing);
    return;
  }
  step.within = static_cast<std::size_t>(completed) * 2 > trials.size() &&
                step.p99_ms <= p99_bound_ms;
  if (step.within) {
    step.limit = Limit::none;
    if (client_busy) {
      step.note = fmt::format("loiter's load thread wanted a CPU {} of the time: near its own limit",
                              busy_text(step.client_busy));
    }
    return;
  }
  step.limit = limit_of(client_busy, server_busy);
  auto parts = missing;
  // A busy client's note always says what it did dispatch: that rate is the figure.
  if (client_busy && (parts.empty() || !parts.front().starts_with("dispatched"))) {
    parts.insert(parts.begin(), fmt::format("dispatched {}/s of {}/s",
                                            grouped(step.dispatched_rate),
                                            grouped(step.requested_rate)));
  }
  if (step.limit == Limit::both) {
    step.note = fmt::format("both ran out: {}; {}", joined(parts), both_busy());
  } else if (step.limit == Limit::client) {
    step.note = fmt::format(
        "loiter's client ran out, not the server: {}, with its load thread wanting a CPU {} of "
        "the time",
        joined(parts), busy_text(step.client_busy));
  } else {
    step.note = joined(parts);
  }
  if (step.note.empty()) {
    step.note = fmt::format("{} of {} trials had everything dispatched and answered 2xx",
                            completed, trials.size());
  }
}

void conclude_side(reports::LadderSide& side, double p99_bound_ms) {
  for (auto& step : side.steps) conclude_step(step, p99_bound_ms);
  side.knee.reset();
  side.knee_note.clear();
  for (const auto& step : side.steps) {
    if (step.kind != StepKind::rate) continue;
    if (step.trials.empty()) {
      side.knee_note = fmt::format("the ladder was stopped before {}/s", grouped(step.rate));
      return;
    }
    if (step.within) {
      side.knee = step.rate;
      continue;
    }
    const auto whose = step.limit == Limit::client ? "the server's knee is at least this high"
                       : step.limit == Limit::both
                           ? "the server's knee is here or higher, on a machine with more to give"
                           : "the server fell short there";
    side.knee_note = fmt::format("at {}/s: {} ({})", grouped(step.rate), step.note, whose);
    return;
  }
  if (side.knee) {
    side.knee_note = "nothing higher was asked for: the knee may be higher";
  }
}

SignInterval sign_interval(std::vector<double> values, double wanted) {
  const auto n = values.size();
  if (n < 2) {
    const double only = n == 1 ? values.front() : 0.0;
    return {.low = only, .high = only, .confidence = 0};
  }
  std::ranges::sort(values);
  // P(Binomial(n, 1/2) < k) for k = 1, 2, ...: the lower tail, added up term by term.
  const double total = std::ldexp(1.0, static_cast<int>(n));
  double below = 0;  // P(X <= k - 1) * 2^n
  double choose = 1;  // C(n, k - 1)
  std::size_t best = 1;
  double best_coverage = 0;
  for (std::size_t k = 1; k <= n / 2; ++k) {
    below += choose;  // adds C(n, k - 1)
    choose = choose * static_cast<double>(n - (k - 1)) / static_cast<double>(k);
    const double coverage = 1 - 2 * below / total;
    if (k == 1) best_coverage = coverage;
    if (coverage >= wanted) {
      best = k;
      best_coverage = coverage;
    } else {
      break;
    }
  }
  return {.low = values[best - 1], .high = values[n - best], .confidence = best_coverage};
}

reports::PairedFigure pair_figure(std::string step, std::string figure, std::string unit,
                                  bool higher_is_better, std::vector<double> baseline,
                                  std::vector<double> candidate, double tolerance, double floor) {
  reports::PairedFigure paired{.step = std::move(step),
                               .figure = std::move(figure),
                               .unit = std::move(unit),
                               .higher_is_better = higher_is_better};
  const auto pairs = std::min(baseline.size(), candidate.size());
  baseline.resize(pairs);
  candidate.resize(pairs);
  std::vector<double> absolute;
  for (std::size_t i = 0; i < pairs; ++i) {
    const double b = baseline[i], c = candidate[i];
    paired.change.push_back(b > 0 ? (c - b) / b : (c > 0 ? 1.0 : 0.0));
    absolute.push_back(c - b);
  }
  paired.baseline_median = median(baseline);
  paired.candidate_median = median(candidate);
  paired.baseline = std::move(baseline);
  paired.candidate = std::move(candidate);
  paired.median_change = median(paired.change);
  const auto interval = sign_interval(paired.change, kConfidence);
  paired.low = interval.low;
  paired.high = interval.high;
  paired.confidence = interval.confidence;
  using reports::PairedVerdict;
  if (paired.confidence < kConfidence) {
    paired.verdict = PairedVerdict::no_difference;
    paired.note = fmt::format(
        "{} pairs cannot establish anything at {:.0f}% (their widest interval covers {:.1f}%): "
        "six pairs or more",
        pairs, kConfidence * 100, paired.confidence * 100);
    return paired;
  }
  if (paired.low <= 0 && paired.high >= 0) {
    paired.verdict = PairedVerdict::no_difference;
    return paired;
  }
  const bool rose = paired.low > 0;
  const bool better = rose == higher_is_better;
  if (floor > 0 && std::abs(median(absolute)) < floor) {
    paired.verdict = PairedVerdict::within_tolerance;
    paired.note = fmt::format("moved {} {} at the median, below the {} {} the figure resolves",
                              reports::plain_number(median(absolute), 3), paired.unit,
                              reports::plain_number(floor), paired.unit);
    return paired;
  }
  if (std::abs(paired.median_change) <= tolerance) {
    paired.verdict = PairedVerdict::within_tolerance;
    return paired;
  }
  paired.verdict = better ? PairedVerdict::better : PairedVerdict::worse;
  return paired;
}

std::vector<reports::PairedFigure> compare_sides(const reports::Ladder& ladder) {
  std::vector<reports::PairedFigure> figures;
  if (ladder.sides.size() < 2) return figures;
  const auto& base = ladder.sides[0].steps;
  const auto& cand = ladder.sides[1].steps;
  const auto tolerance = ladder.tolerance;
  for (std::size_t s = 0; s < std::min(base.size(), cand.size()); ++s) {
    const auto& a = base[s];
    const auto& b = cand[s];
    const auto label = step_label(a);
    if (a.kind == StepKind::saturation) {
      figures.push_back(pair_figure(label, "requests/s", "/s", true,
                                    each(a.trials, succeeded_rate),
                                    each(b.trials, succeeded_rate), tolerance));
    }
    figures.push_back(pair_figure(label, "p99", "ms", false, each(a.trials, p99),
                                  each(b.trials, p99), tolerance, kP99FloorMs));
    figures.push_back(pair_figure(label, "server CPU/request", "µs", false,
                                  each(a.trials, cpu_us_per_request),
                                  each(b.trials, cpu_us_per_request), tolerance));
  }
  return figures;
}

std::vector<std::size_t> abba_order(std::size_t pairs) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < pairs; ++i) {
    order.push_back(i % 2 == 0 ? 0 : 1);
    order.push_back(i % 2 == 0 ? 1 : 0);
  }
  return order;
}

std::string step_label(const LadderStep& step) {
  if (step.kind == StepKind::saturation) return fmt::format("{} connections", step.connections);
  return fmt::format("{}/s", grouped(step.rate));
}

}  // namespace loiter::suites::ladder
