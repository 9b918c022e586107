// The ladder's conclusions: pure functions of the trials (no clock, no server), so what a
// ladder says can be checked on canned trials. A step's medians, whether it stayed within
// the bound, and who ran out (loiter's client or the server); a side's knee; and the paired
// comparison of a baseline and a candidate, figure by figure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "loiter/clients/load/load_result.hpp"
#include "loiter/reports/ladder.hpp"

namespace loiter::suites::ladder {

// loiter's load thread wanting a CPU at least this share of the time (on one, or waiting
// for one): a shortfall is the client's, unless the server's CPUs were as busy (both's).
// The same share a scenario's verdict calls a client limit.
inline constexpr double kClientBusy = clients::kClientBusy;
inline constexpr double kServerBusy = 0.85;
// The generator paces on a 1 ms tick (a request is up to 1 ms late by design): a p99 that
// moved by less than this is not held to the tolerance.
inline constexpr double kP99FloorMs = 1.0;

// The step's medians from its trials, whether it is within `p99_bound_ms` (a rate step:
// most trials had everything dispatched and answered 2xx, and the median p99 is within the
// bound), and its limit when it fell short (a saturation step always meets one): the
// client's when its load thread wanted a CPU at least kClientBusy of the time, both's when
// the server's CPUs were also busy at least kServerBusy, the server's otherwise.
void conclude_step(reports::LadderStep& step, double p99_bound_ms);

// Every step concluded, then the knee: the highest rate step that, with every rate step
// below it, is within; knee_note says what the next step ran into.
void conclude_side(reports::LadderSide& side, double p99_bound_ms);

// The sign test's interval for the median of `values`: the order statistics x(k) and
// x(n+1-k), 1-based, for the largest k whose coverage 1 - 2 P(Binomial(n, 1/2) < k) is at
// least `wanted`, or k = 1 (min and max) and its own coverage when none reaches it.
struct SignInterval {
  double low = 0, high = 0;
  double confidence = 0;  // 0 with fewer than two values: nothing is established
};
SignInterval sign_interval(std::vector<double> values, double wanted = 0.95);

double median(std::vector<double> values);  // 0 when empty

// The coverage a paired verdict needs: with fewer than six pairs no interval reaches it, and
// the figure is no-difference whatever its pairs did.
inline constexpr double kConfidence = 0.95;

// One figure paired trial by trial: each pair's relative change, its median, the sign-test
// interval and the verdict against `tolerance` (a fraction). A change of less than
// `floor` in the figure's own unit (median over the pairs) is within tolerance whatever its
// relative size (the p99's 1 ms tick); 0: none.
reports::PairedFigure pair_figure(std::string step, std::string figure, std::string unit,
                                  bool higher_is_better, std::vector<double> baseline,
                                  std::vector<double> candidate, double tolerance,
                                  double floor = 0);

// The comparison of ladder.sides[0] (baseline) and [1] (candidate), step by step (steps
// matched by their place): a rate step's p99 and server CPU per request, a saturation
// step's requests/s, p99 and server CPU per request. Trial i of a step pairs with the other
// side's trial i; a step with fewer trials on one side pairs as many as both have.
std::vector<reports::PairedFigure> compare_sides(const reports::Ladder& ladder);

// The order a comparison's trials run in, for `pairs` pairs: pair i runs baseline first when
// i is even, candidate first when odd (ABBA...), so a drift of the machine over the run
// weighs on both sides alike. Each entry: the side's index (0 baseline, 1 candidate).
std::vector<std::size_t> abba_order(std::size_t pairs);

// "5,000/s", "64 connections": a step's name in tables and the paired figures.
std::string step_label(const reports::LadderStep& step);

}  // namespace loiter::suites::ladder
