// The denial ladder's conclusions: pure functions of a step's figures (no measuring, no
// formatting beyond the document's own words). A step is denied when the regular traffic's
// 2xx share fell under the least share or its p99 passed the bound; what the server ran into
// is read from its side of the step; a kind's knee is its first denied step; two sides'
// knees are compared kind by kind.
#pragma once

#include "loiter/reports/denial.hpp"

namespace loiter::suites::ladder {

// The share of its CPUs' time at which a server counts as CPU-bound.
inline constexpr double kServerCpuBound = 0.9;
// loiter's holder or load thread wanting a CPU this share of the time was at its own limit
// (as a rate ladder's client limit, clients::kClientBusy).
inline constexpr double kLoiterBusy = 0.85;
// A server whose accept queue held this many connections at once while its CPUs had room
// was not taking them in: a pool or cap of its own was full.
inline constexpr std::size_t kWaitingInQueue = 10;
// Descriptors within this many of the server's RLIMIT_NOFILE count as at its limit.
inline constexpr std::size_t kFdLimitSlack = 8;

// Fills step.denied, step.why, step.cause and step.cause_note from its figures.
void conclude_step(reports::DenialStep& step, double p99_bound_ms, double least_2xx_share);

// Fills kind.knee (its first denied step's count) and kind.highest (its last step's).
void conclude_kind(reports::DenialKind& kind);

// A comparison's rows: for each kind both sides ran, its knees and their change. A side
// that did not run a kind to a knee or to its last asked step (`asked_highest`) is not
// comparable there. Not-denied-up-to-N compares as a knee above N.
std::vector<reports::DenialComparison> compare_knees(const reports::DenialSide& baseline,
                                                     const reports::DenialSide& candidate,
                                                     std::size_t asked_highest);

}  // namespace loiter::suites::ladder
