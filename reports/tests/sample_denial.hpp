// Canned denial ladders for the denial reporters' tests: every field set somewhere.
//   sample_denial()             nginx alone over HTTP/1.1 at 2,000/s: its control step
//                               (no connection held) served; silent denied at 500
//                               held (accept-queue: accept queue 128/128; 100 and 250
//                               served), header-trickle not denied up to 10,000; one step
//                               without its descriptor limit; a problem, not interrupted.
//   sample_denial_comparison()  nginx-1.24 (baseline) against nginx-1.26 (candidate) over
//                               h2c, only the baseline with a control step: silent's knee lower on
//                               the candidate (500 -> 250), slow-reader the same (not denied up to
//                               1,000), idle-keepalive not comparable (the candidate's
//                               interrupted); interrupted.
#pragma once

#include "loiter/reports/denial.hpp"

namespace loiter::reports::testing {
Denial sample_denial();
Denial sample_denial_comparison();
}  // namespace loiter::reports::testing
