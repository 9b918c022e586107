// What the flood family's scenarios share over HTTP/2 (scenarios_flood.cpp) and HTTP/3
// (scenarios_flood_h3.cpp): one bounded flood at a time on connections of its own, beside a
// control client on another connection that runs from kControlLead before the flood to
// kControlTail after it; the flood sends twice the frames its target declares; the needs, the
// patience and the expectation read from the target's flood table ([h2.flood] or
// [h3.flood]). Private to the catalogue.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "loiter/clients/h2/floods.hpp"
#include "loiter/clients/h3/floods.hpp"
#include "scenario_kit.hpp"

namespace loiter::suites::flood_plan {

using namespace std::chrono_literals;
using fixtures::FloodBound;
using kit::Need;
using kit::Target;

inline constexpr Duration kControlLead = 300ms;  // the control client runs alone this long first
inline constexpr Duration kFloodFor = 2s;  // each flood's time bound (its count bounds it first)
inline constexpr Duration kControlTail = 500ms;  // the control client runs on this long after it
inline constexpr Duration kGrace = 1500ms;       // after the flood: the server's ending may come
inline constexpr Duration kControlInterval = 20ms;

template <class Options>
using Spawn = void (*)(clients::asio::io_context&, const Options&,
                       std::vector<clients::ConnectionRecord>&);

// One protocol's flood family: its table, its control client, how its options are made.
template <class Options>
struct FloodFamily {
  std::string_view section;                          // the target's table: "h2.flood"
  std::function<Need(const Target&)> need_protocol;  // [h2] or [h3]
  // The target's flood table; null without one (or without the protocol's table).
  std::function<const FloodBound*(const Target&)> bound;
  std::string_view control_kind;  // "h2-control"
  Spawn<Options> control;
  // The kind's options on the scenario's fleet (its endpoint, its path, ...).
  std::function<Options(const DriveContext&)> options;
};

// One flood of the family.
template <class Options>
struct FloodKind {
  std::string_view id;    // the scenario id and the client kind: "h2-rapid-reset"
  std::string_view name;  // as the flood table's kinds list it: "rapid-reset"
  std::string_view must;
  Spawn<Options> spawn;
  // What the judge holds the kind to beyond its frames (HTTP/3: FloodExpectation's must_end,
  // refusals_end, close_codes); the HTTP/2 floods keep the defaults.
  std::function<void(FloodExpectation&)> rules;
};

// The reason to skip a flood of `name` (the table's kind) on a target whose table (`section`)
// is `bound`: no table, or its kinds leave the flood out; then the health path the control
// client asks.
Need need_flood(const FloodBound* bound, std::string_view section, std::string_view name,
                const Target& target);

// Each flood's patience: the control's lead, the flood, the grace after it, and the connect.
Duration patience(const Timing& timing);

// The expectation of flood `kind` against the target's `bound`: the flood's and the control
// client's connections, the declared frames, the p99 ([flood] p99, else the target's
// load_p99, scaled), the RSS bound, every FD given back.
Expectations expect_flood(std::string_view kind, std::string_view control_kind,
                          const FloodBound& bound, const Target& target, const Timing& timing,
                          const ScenarioParameters& parameters);

// The frames a flood sends against `bound`: twice the declared, so that a server that keeps its
// promise ends the flood halfway and one that does not lets it run past its bound (a flood no
// larger than the bound could not tell them apart).
inline std::size_t flood_frames(const FloodBound& bound) { return 2 * bound.frames; }

inline Duration scaled(Duration d, const Timing& timing) {
  return std::chrono::duration_cast<Duration>(d * timing.scale);
}

// The fleet of either protocol's options.
inline clients::FleetSpec& fleet_of(clients::FloodOptions& options) { return options.fleet; }
inline clients::FleetSpec& fleet_of(clients::H3FloodOptions& options) { return options.h3.fleet; }

// The control client from 50 ms into the scenario, for kControlLead + kFloodFor + kControlTail;
// the floods (every connection but the control's) kControlLead later, from other sources.
template <class Options>
void drive_flood(const FloodFamily<Options>& family, Spawn<Options> spawn,
                 clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  const auto start = c.start + 50ms;
  auto base = family.options(c);
  base.duration = scaled(kFloodFor, c.timing);
  if (const auto* bound = family.bound(c.target)) base.frames = flood_frames(*bound);
  auto control = base;
  fleet_of(control).count = 1;
  fleet_of(control).pacing.start = start;
  control.duration = scaled(kControlLead + kFloodFor + kControlTail, c.timing);
  control.interval = kControlInterval;
  family.control(io, control, out.fleet());
  auto flood = base;
  fleet_of(flood).count = c.expected.connections - 1;
  fleet_of(flood).pacing.start = start + kControlLead;
  fleet_of(flood).source_offset = clients::kConnectionsPerSource;  // not the control's sources
  spawn(io, flood, out.fleet());
}

template <class Options>
Scenario flood_scenario(const FloodFamily<Options>& family, const FloodKind<Options>& kind) {
  return {.id = kind.id,
          .family = "flood",
          .must = kind.must,
          .unmet_need = [family, name = kind.name](const Target& t) -> Need {
            if (auto need = family.need_protocol(t)) return need;
            return need_flood(family.bound(t), family.section, name, t);
          },
          .expect =
              [family, kind](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                auto expected =
                    expect_flood(kind.id, family.control_kind, *family.bound(t), t, timing, p);
                if (kind.rules) kind.rules(*expected.flood);
                return expected;
              },
          .drive = [family, spawn = kind.spawn](
                       clients::asio::io_context& io, const DriveContext& c,
                       DriveOutput& out) { drive_flood(family, spawn, io, c, out); },
          .default_count = 1,
          .most_count = 100};
}

}  // namespace loiter::suites::flood_plan
