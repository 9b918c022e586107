// held-capacity: how many working connections the server holds at once. Each connection
// answers a first request, is held, answers a re-check on the same connection while every
// other one is held too (a handshake alone is not a working connection), and is then
// closed by the client; the server must answer all of them and give every FD back. On an
// HTTP/2 target ([h2]) each connection speaks h2 and its re-check is a second stream; on an
// HTTP/3 target ([h3]) each is a QUIC connection and its re-check a second request stream.

#include "loiter/clients/h2/held_recheck.hpp"
#include "loiter/clients/h3/stalls.hpp"
#include "loiter/clients/http1/held_recheck.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace std::chrono_literals;

// Without an idle deadline to stay under, the phases take this long each.
constexpr auto kPhaseWithoutIdle = 1s;
constexpr double kLeastOpenRate = 1000.0;  // connections per second

// The timeline of one held-capacity run. The idle deadline (if declared) would rightly end
// a held connection, so every connection is opened within half of it and each phase of
// holding lasts a quarter of it: no connection waits idle for as long as the deadline.
struct CapacityPlan {
  double rate = kLeastOpenRate;  // connections opened per second
  Duration opening{};            // the whole fleet connects within this
  Duration phase{};              // hold before the re-check, and again before the release
};

CapacityPlan capacity_plan(const Target& target, const Timing& timing, std::size_t count) {
  const auto& declared = target.h3 ? target.h3->idle : target.deadlines.idle;
  const Duration idle = declared.value_or(
      std::chrono::duration_cast<Duration>(4 * kPhaseWithoutIdle * timing.scale));
  CapacityPlan plan;
  const double within = std::chrono::duration<double>(idle / 2).count();
  plan.rate = std::max(kLeastOpenRate, static_cast<double>(count) / within);
  plan.opening = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(static_cast<double>(count) / plan.rate));
  plan.phase = idle / 4;
  return plan;
}

Expectations expect_held(const Target& t, const Timing& timing, const ScenarioParameters& p) {
  const auto plan = capacity_plan(t, timing, p.count);
  // From a connection's own connect: at most the whole opening plus both phases, then
  // room for the re-check's answer and the close.
  const auto patience =
      plan.opening + 2 * plan.phase + timing.patience_for(plan.phase) + timing.connect;
  auto expected = completion(2, Duration{}, patience, timing, p);
  expected.completion->client_ends = true;
  expected.completion->held_at_once = true;
  return expected;
}

// The plan's timeline in a held client's options (HTTP/1.1's, or h2's: the re-check a
// second stream on each connection).
template <typename Options>
Options held_options(const DriveContext& c, const CapacityPlan& plan) {
  auto options = options_for<Options>(c);
  options.fleet.pacing = {.start = c.start + 20ms, .per_second = plan.rate};
  options.recheck_at = options.fleet.pacing.start + plan.opening + plan.phase;
  options.release_at = options.recheck_at + plan.phase;
  if (c.target.paths.health) options.path = *c.target.paths.health;
  return options;
}

void drive_held(clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  const auto plan = capacity_plan(c.target, c.timing, c.expected.connections);
  if (c.target.h3) {
    auto options = h3_family::h3_options(c);
    options.fleet.pacing = {.start = c.start + 20ms, .per_second = plan.rate};
    options.recheck_at = options.fleet.pacing.start + plan.opening + plan.phase;
    options.release_at = options.recheck_at + plan.phase;
    clients::spawn_h3_held_recheck(io, options, out.fleet());
    return;
  }
  if (c.target.h2) {
    clients::spawn_h2_held_recheck(io, held_options<clients::H2HeldRecheckOptions>(c, plan),
                                   out.fleet());
    return;
  }
  clients::spawn_held_recheck(io, held_options<clients::HeldRecheckOptions>(c, plan), out.fleet());
}

Scenario held_capacity() {
  return {.id = "held-capacity",
          .family = "capacity",
          .must =
              "answer a first request and a re-check on every one of N connections held at "
              "once (over HTTP/2 and HTTP/3: a first and a second stream), and give every FD "
              "back after they close",
          .unmet_need = [](const Target& t) { return need_path(t.paths.health, "health"); },
          .expect = expect_held,
          .drive = drive_held,
          .default_count = 1000,
          .most_count = kSplitCount};  // beyond one process: split over client processes
}

}  // namespace

std::vector<Scenario> capacity_scenarios() { return {held_capacity()}; }

}  // namespace loiter::suites
