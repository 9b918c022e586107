// The flood family's needs, patience and expectation, for either protocol (flood_plan.hpp).
#include "flood_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace loiter::suites::flood_plan {

Need need_flood(const FloodBound* bound, std::string_view section, std::string_view name,
                const Target& target) {
  if (bound == nullptr) {
    return fmt::format("the target declares no flood bound (no [{}] in its target file)", section);
  }
  if (std::ranges::find(bound->kinds, name) == bound->kinds.end()) {
    return fmt::format("the target's [{}] kinds leave out \"{}\"", section, name);
  }
  return kit::need_path(target.paths.health, "health");
}

Duration patience(const Timing& timing) {
  return scaled(kControlLead + kFloodFor + kGrace, timing) + timing.connect;
}

Expectations expect_flood(std::string_view kind, std::string_view control_kind,
                          const FloodBound& bound, const Target& target, const Timing& timing,
                          const ScenarioParameters& parameters) {
  const auto p99 = bound.p99 ? bound.p99 : target.promises.load_p99;
  return {.connections = parameters.count + 1,  // the floods and the control client
          .patience = patience(timing),
          .flood = FloodExpectation{.kind = std::string(kind),
                                    .control_kind = std::string(control_kind),
                                    .frames = bound.frames,
                                    .p99 = kit::scaled_bound(p99, timing),
                                    .rss = bound.rss},
          .fds_after = 0,
          .recovery = timing.recovery};
}

}  // namespace loiter::suites::flood_plan
