// The flood family: one bounded HTTP/2 flood at a time (rapid reset, CONTINUATION, SETTINGS,
// PING; h2/floods.hpp) next to a control client on a fresh connection. The server must end
// the flood (a GOAWAY with ENHANCE_YOUR_CALM or PROTOCOL_ERROR, or a close) within the
// frames its target declares, keep answering the control client with 200s within its p99
// bound, stay within its RSS bound, and give every FD back. Only for a target that
// declares [h2.flood] with the kind; never in the default catalogue run (`loiter check
// --family flood`, or a flood scenario named).
#include <fmt/format.h>

#include <algorithm>

#include "loiter/clients/h2/floods.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace std::chrono_literals;

constexpr auto kControlLead = 300ms;  // the control client runs alone this long first
constexpr auto kFloodFor = 2s;        // each flood's time bound (its count bounds it first)
constexpr auto kControlTail = 500ms;  // the control client runs on this long after it
constexpr auto kGrace = 1500ms;       // after the flood: the server's GOAWAY or close may come
constexpr auto kControlInterval = 20ms;

using FloodSpawn = void (*)(clients::asio::io_context&, const clients::FloodOptions&,
                       std::vector<clients::ConnectionRecord>&);

struct FloodKind {
  std::string_view id;    // the scenario id and the client kind: "h2-rapid-reset"
  std::string_view name;  // as [h2.flood] kinds lists it: "rapid-reset"
  std::string_view must;
  FloodSpawn spawn;
};

Need need_flood(const Target& t, std::string_view name) {
  if (!t.h2) return std::string("the target does not speak HTTP/2 (no [h2] in its target file)");
  if (!t.h2->flood) {
    return std::string("the target declares no flood bound (no [h2.flood] in its target file)");
  }
  const auto& kinds = t.h2->flood->kinds;
  if (std::ranges::find(kinds, name) == kinds.end()) {
    return fmt::format("the target's [h2.flood] kinds leave out \"{}\"", name);
  }
  return need_path(t.paths.health, "health");
}

Duration patience(const Timing& timing) {
  return std::chrono::duration_cast<Duration>((kControlLead + kFloodFor + kGrace) * timing.scale) +
         timing.connect;
}

Expectations expect_flood(std::string_view kind, const Target& t, const Timing& timing,
                          const ScenarioParameters& p) {
  const auto& flood = *t.h2->flood;
  const auto p99 = flood.p99 ? flood.p99 : t.promises.load_p99;
  return {.connections = p.count + 1,  // the floods and the control client
          .patience = patience(timing),
          .flood = FloodExpectation{.kind = std::string(kind),
                                    .control_kind = std::string(clients::kH2Control),
                                    .frames = flood.frames,
                                    .p99 = scaled_bound(p99, timing),
                                    .rss = flood.rss},
          .fds_after = 0,
          .recovery = timing.recovery};
}

clients::FloodOptions flood_options(const DriveContext& c) {
  auto options = options_for<clients::FloodOptions>(c);
  options.path = *c.target.paths.health;
  options.duration = std::chrono::duration_cast<Duration>(kFloodFor * c.timing.scale);
  // Twice the frames the target promises to end it within: a server that keeps its promise
  // ends the flood halfway, one that does not lets it run past its bound (a flood no larger
  // than the bound could not tell them apart).
  if (c.target.h2 && c.target.h2->flood) options.frames = 2 * c.target.h2->flood->frames;
  return options;
}

void drive_flood(FloodSpawn spawn, clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
  const auto start = c.start + 50ms;
  auto control = flood_options(c);
  control.fleet.count = 1;
  control.fleet.pacing.start = start;
  control.duration = std::chrono::duration_cast<Duration>(
      (kControlLead + kFloodFor + kControlTail) * c.timing.scale);
  control.interval = kControlInterval;
  clients::spawn_h2_control(io, control, out.fleet());
  auto flood = flood_options(c);
  flood.fleet.count = c.expected.connections - 1;
  flood.fleet.pacing.start = start + kControlLead;
  flood.fleet.source_offset = clients::kConnectionsPerSource;  // another source than the control's
  spawn(io, flood, out.fleet());
}

Scenario flood_scenario(const FloodKind& kind) {
  return {.id = kind.id,
          .family = "flood",
          .must = kind.must,
          .unmet_need = [name = kind.name](const Target& t) { return need_flood(t, name); },
          .expect = [id = kind.id](
                        const Target& t, const Timing& timing,
                        const ScenarioParameters& p) { return expect_flood(id, t, timing, p); },
          .drive = [spawn = kind.spawn](clients::asio::io_context& io, const DriveContext& c,
                                        DriveOutput& out) { drive_flood(spawn, io, c, out); },
          .default_count = 1,
          .most_count = 100};
}

}  // namespace

std::vector<Scenario> flood_scenarios() {
  const FloodKind kinds[] = {
      {clients::kH2RapidReset, "rapid-reset",
       "end a rapid-reset flood (HEADERS then RST_STREAM on each new stream, CVE-2023-44487) "
       "within its declared frames, while still serving a control client",
       clients::spawn_h2_rapid_reset},
      {clients::kH2ContinuationFlood, "continuation",
       "end a header block that never ends (CONTINUATION frames without END_HEADERS, "
       "VU#421644) within its declared frames and RSS, while still serving a control client",
       clients::spawn_h2_continuation_flood},
      {clients::kH2SettingsFlood, "settings",
       "end a SETTINGS flood whose ACKs the client does not read within its declared frames, "
       "while still serving a control client",
       clients::spawn_h2_settings_flood},
      {clients::kH2PingFlood, "ping",
       "end a PING flood whose ACKs the client never reads (as CVE-2019-9512) within its "
       "declared frames, while still serving a control client",
       clients::spawn_h2_ping_flood},
  };
  std::vector<Scenario> scenarios;
  for (const auto& kind : kinds) scenarios.push_back(flood_scenario(kind));
  return scenarios;
}

}  // namespace loiter::suites
