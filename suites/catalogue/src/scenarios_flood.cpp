// The flood family over HTTP/2: one bounded flood at a time (rapid reset, CONTINUATION,
// SETTINGS, PING; h2/floods.hpp) next to a control client on a fresh connection
// (flood_plan.hpp). The server must end the flood (a GOAWAY with ENHANCE_YOUR_CALM or
// PROTOCOL_ERROR, or a close) within the frames its target declares, keep answering the
// control client with 200s within its p99 bound, stay within its RSS bound, and give every
// FD back. Only for a target that declares [h2.flood] with the kind; never in the default
// catalogue run (`loiter check --family flood`, or a flood scenario named).
#include "flood_plan.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace scenarios_flood {  // named: unity batches put other files' helpers beside these

using Options = clients::FloodOptions;
using Kind = flood_plan::FloodKind<Options>;

flood_plan::FloodFamily<Options> h2_family() {
  return {.section = "h2.flood",
          .need_protocol = kit::need_h2,
          .bound = [](const fixtures::Target& t) -> const fixtures::FloodBound* {
            return t.h2 && t.h2->flood ? &*t.h2->flood : nullptr;
          },
          .control_kind = clients::kH2Control,
          .control = clients::spawn_h2_control,
          .options =
              [](const DriveContext& c) {
                auto options = kit::options_for<Options>(c);
                options.path = *c.target.paths.health;
                return options;
              }};
}

}  // namespace scenarios_flood

std::vector<Scenario> flood_scenarios() {
  const scenarios_flood::Kind kinds[] = {
      {clients::kH2RapidReset,
       "rapid-reset",
       "end a rapid-reset flood (HEADERS then RST_STREAM on each new stream, CVE-2023-44487) "
       "within its declared frames, while still serving a control client",
       clients::spawn_h2_rapid_reset,
       {}},
      {clients::kH2ContinuationFlood,
       "continuation",
       "end a header block that never ends (CONTINUATION frames without END_HEADERS, "
       "VU#421644) within its declared frames and RSS, while still serving a control client",
       clients::spawn_h2_continuation_flood,
       {}},
      {clients::kH2SettingsFlood,
       "settings",
       "end a SETTINGS flood whose ACKs the client does not read within its declared frames, "
       "while still serving a control client",
       clients::spawn_h2_settings_flood,
       {}},
      {clients::kH2PingFlood,
       "ping",
       "end a PING flood whose ACKs the client never reads (as CVE-2019-9512) within its "
       "declared frames, while still serving a control client",
       clients::spawn_h2_ping_flood,
       {}},
  };
  const auto family = scenarios_flood::h2_family();
  std::vector<Scenario> scenarios;
  for (const auto& kind : kinds) scenarios.push_back(flood_plan::flood_scenario(family, kind));
  return scenarios;
}

}  // namespace loiter::suites
