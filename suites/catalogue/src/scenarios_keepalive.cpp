// The keep-alive family: a connection left unused after its response is closed at the idle
// deadline (from that response), and one reused inside it is served.
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/keepalive_reuse.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;

Need needs_idle(const Target& target) {
  return first_unmet(
      {need_deadline(target.deadlines.idle, "idle"), need_path(target.paths.health, "health")});
}

Scenario idle_keepalive() {
  return {.id = "idle-keepalive",
          .family = "keepalive",
          .must =
              "close a keep-alive connection left unused within its idle deadline, measured "
              "from the last response",
          .unmet_need = needs_idle,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                return closure(Since::last_response, *t.deadlines.idle, {"close"}, timing, p);
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
                auto options = options_for<clients::IdleKeepaliveOptions>(c);
                options.path = *c.target.paths.health;
                clients::spawn_idle_keepalive(io, options, out.fleet());
              }};
}

Scenario keepalive_reuse() {
  return {.id = "keepalive-reuse",
          .family = "keepalive",
          .must = "serve a second request on a connection reused inside its idle deadline",
          .unmet_need = needs_idle,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                // Reused at half the idle deadline: nothing to outlive, two answers to give.
                return completion(2, Duration{}, timing.patience_for(*t.deadlines.idle) * 2, timing,
                                  p);
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
                auto options = options_for<clients::KeepaliveReuseOptions>(c);
                options.path = *c.target.paths.health;
                options.reuse_after = *c.target.deadlines.idle / 2;
                options.requests = 2;
                clients::spawn_keepalive_reuse(io, options, out.fleet());
              }};
}

}  // namespace

std::vector<Scenario> keepalive_scenarios() { return {idle_keepalive(), keepalive_reuse()}; }

}  // namespace loiter::suites
