// One step of a denial ladder: a fresh server, warmed up and settled; `held` stalled
// connections of one kind opened and kept at that count (clients/holder.hpp); then regular
// traffic at a fixed rate beside them, the server's side sampled throughout (its
// descriptors, RSS, CPU, and its listeners' accept queue from the kernel); then everything
// closed and the server stopped. Private to the ladder room.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "loiter/clients/kinds.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/denial.hpp"

namespace loiter::suites::ladder {

struct DenialTrialPlan {
  const fixtures::Target* target = nullptr;  // as started (its cpus pinned already)
  const clients::ClientKind* kind = nullptr;
  clients::KindSettings settings;
  std::size_t held = 0;
  double rate = 0;
  std::size_t connections = 0;
  std::chrono::nanoseconds duration{};
  double ramp = 2000;          // the held connections' first opening, a second
  std::size_t run = 0;         // the step's place in the run: its source blocks
  std::vector<int> client_cpus;
  bool want_provenance = false;
  std::function<bool()> cancelled;
};

struct DenialTrialOutcome {
  reports::DenialStep step;  // measured; not yet concluded
  std::optional<fixtures::Provenance> provenance;
  bool stopped = false;  // the user stopped it: not a step
};

// The regular traffic starts once every held connection is open, or this long after the
// ramp's own time (held / ramp) at the latest, with as many as are open then.
inline constexpr auto kRampSlack = std::chrono::seconds(3);

// Throws what the server's start throws (fixtures::StartError), fixtures::HarnessError when
// its warm-up fails, and std::runtime_error when the load could not run.
DenialTrialOutcome run_denial_trial(const DenialTrialPlan& plan);

}  // namespace loiter::suites::ladder
