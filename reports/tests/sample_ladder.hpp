// Canned ladders for the ladder's reporter tests: every field set somewhere.
//   sample_ladder()      one target alone: 5,000/s and 20,000/s within, 50,000/s client-limited
//                        (the knee 20,000/s), one saturation step at 64 connections;
//                        a problem, not interrupted.
//   sample_comparison()  a baseline and a candidate, five pairs each: one figure worse, one
//                        better, one within the tolerance, one of no difference; interrupted.
#pragma once

#include "loiter/reports/ladder.hpp"

namespace loiter::reports::testing {
Ladder sample_ladder();
Ladder sample_comparison();
}  // namespace loiter::reports::testing
