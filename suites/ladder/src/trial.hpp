// One trial of a ladder: a fresh server, warmed up and settled, one schedule of regular
// traffic on a thread of its own (pinned where asked), the server's processes sampled
// throughout; then the server stopped. Private to the ladder room.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/ladder.hpp"

namespace loiter::suites::ladder {

struct TrialPlan {
  const fixtures::Target* target = nullptr;  // as started (its cpus pinned already)
  reports::StepKind kind = reports::StepKind::rate;
  double rate = 0;  // a rate step's requests/s (a saturation step: a closed loop)
  std::size_t connections = 0;
  std::chrono::nanoseconds duration{};
  std::size_t run = 0;            // the trial's place in the run: its source block
  std::vector<int> client_cpus;   // the load thread's; empty: not pinned
  bool want_provenance = false;   // gather the server's binary and command
  std::function<bool()> cancelled;
};

struct TrialOutcome {
  reports::LadderTrial trial;
  std::optional<fixtures::Provenance> provenance;  // when asked for
  bool stopped = false;  // the user stopped its schedule early
};

// Throws what the server's start throws (fixtures::StartError), fixtures::HarnessError when
// its warm-up fails, and std::runtime_error when the load could not run.
TrialOutcome run_trial(const TrialPlan& plan);

}  // namespace loiter::suites::ladder
