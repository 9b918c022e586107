// soak: sustained open-loop regular traffic with connection churn mixed in — requests on
// fresh connections the client closes, requests with "Connection: close", clients that
// reset mid-response, kept-alive connections replaced every N requests — for a duration
// (the seed's 15,000 req/s for 30 minutes by default). Every owed request must be answered
// 2xx; the server's FDs, connections and RSS must not drift upwards over the second half
// (least-squares slopes within the target's [soak] bounds); the last window's p99 must stay
// near the first's; and FDs, connections and threads must be back at their baseline once
// the traffic ends. Only run when asked for by id: it is long.

#include <algorithm>

#include "loiter/clients/transport/targets.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace std::chrono_literals;

// The seed's soak phase: 15,000 GET/s for 30 minutes, over 32 kept-alive connections.
const ScenarioParameters kSoakDefaults{.count = 0,
                                       .load_rate = 15000.0,
                                       .load_duration = 30min,
                                       .load_connections = 32,
                                       .churn = kSoakChurn};

constexpr std::size_t kAbortBytes = 1 << 20;  // an answer still arriving when the client resets
constexpr auto kLongestWindow = 60s;          // p99 compared over the first and last minute
// The shortest span a drift slope is judged over (not scaled: a span of traffic, not a
// wait): the default soak's is 15 min, the ctest soak's 10 s, the soak meta rows' 3 and 4 s;
// a soak stopped after 3 s fits 1.5 s of its pool and churn opening.
constexpr auto kShortestFit = 2500ms;

Need needs_soak(const Target& t) { return need_path(t.paths.health, "health"); }

// The first and last minute, or a quarter of a shorter run each.
Duration edge_window(Duration duration) { return std::min<Duration>(kLongestWindow, duration / 4); }

// Samples a long soak less often: about 1,200 samples, every 100 ms to every second.
Duration sample_period(Duration duration) {
  return std::clamp<Duration>(duration / 1200, Duration(100ms), Duration(1s));
}

Expectations expect_soak(const Target& t, const Timing& timing, const ScenarioParameters& p) {
  const auto scaled = [&](Duration d) {
    return std::chrono::duration_cast<Duration>(d * timing.scale);
  };
  Expectations e{.connections = 0,
                 .patience = timing.connect,
                 .load = LoadExpectation{.p99 = t.promises.load_p99
                                                    ? std::optional(scaled(*t.promises.load_p99))
                                                    : std::nullopt,
                                         .pool = p.load_connections,
                                         .fds_during = false},
                 .fds_after = 0,
                 .recovery = timing.recovery};
  e.soak =
      SoakExpectation{.fds_per_minute = t.soak.fds_per_minute,
                      .connections_per_minute = t.soak.connections_per_minute,
                      .rss_kib_per_minute = static_cast<double>(t.soak.rss_per_minute) / 1024.0,
                      .p99_growth = t.soak.p99_growth,
                      .p99_floor = scaled(t.soak.p99_floor),
                      .window = edge_window(p.load_duration),
                      .shortest_fit = kShortestFit};
  e.sample_period = sample_period(p.load_duration);
  // The port's TCP states once a second at most: a soak's churn leaves its sockets in
  // TIME_WAIT by the ten thousand, and each count costs about 2 us of CPU for each of them
  // (at every 100 ms sample, a third of a core); its connection counts drift over minutes.
  e.tcp_sample_period = std::max<Duration>(e.sample_period, 1s);
  return e;
}

// What aborted requests ask for: a large answer where the target offers one.
std::string abort_path(const Target& t) {
  if (!t.paths.large) return *t.paths.health;
  return large_path(t, kAbortBytes);
}

void drive_soak(clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  const auto& p = c.parameters;
  auto churn = p.churn.value_or(clients::Churn{});
  if (churn.abort_path.empty()) churn.abort_path = abort_path(c.target);
  auto options = regular_traffic(c, c.start + 50ms, clients::kConnectionsPerSource);  // 127.0.0.3
  options.churn = std::move(churn);
  options.edge_window = c.expected.soak->window;
  options.stop_early = c.stop_early;
  clients::spawn_load(load_io(io, c), options, out.load.emplace());
}

}  // namespace

Scenario soak_scenario() {
  return {.id = "soak",
          .family = "load",
          .must =
              "answer sustained open-loop traffic with connection churn with 2xx, without its "
              "FDs, connections or RSS drifting upwards or its p99 growing, and give every FD, "
              "connection and thread back once it ends",
          .unmet_need = needs_soak,
          .expect = expect_soak,
          .drive = drive_soak,
          .default_count = 0,
          .load_defaults = kSoakDefaults,
          .winds_down = true};
}

}  // namespace loiter::suites
