// One trial of a ladder: a fresh server, warmed up and settled, one schedule of regular
// traffic on a thread of its own (pinned where asked), the server's processes sampled
// throughout; then the server stopped. Private to the ladder room.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/load/load.hpp"
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

// The load on a thread of its own, pinned alone to `cpus` (empty: not pinned), while the
// caller's thread (which starts the next trial's server, and whose affinity a forked child
// starts with) stays unpinned. The engine measures its thread's want of a CPU.
clients::LoadResult run_load(const clients::LoadOptions& options, const std::vector<int>& cpus);

// Where the server and loiter's client threads run: the lower half of this process's CPUs
// for the server, the upper half for the client, where there are two or more.
struct Pinning {
  std::vector<int> server, client;
  std::string text;
};
Pinning pinning_for(bool pin);

// Throws what the server's start throws (fixtures::StartError), fixtures::HarnessError when
// its warm-up fails, and std::runtime_error when the load could not run.
TrialOutcome run_trial(const TrialPlan& plan);

}  // namespace loiter::suites::ladder
