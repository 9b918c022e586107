// idle-under-load, the seed's headline test: waiting connections — a third silent, a third
// with a stalled head, a third unused keep-alive — opened while open-loop regular traffic
// runs. The server must close every waiting connection within its own deadline, answer every
// dispatched regular request with 2xx within the target's p99 bound, give the waiting
// connections' FDs back while the load still runs, and every FD once it ends.

#include <algorithm>

#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace std::chrono_literals;

constexpr auto kLoadLead = 1s;           // regular traffic runs alone this long first
constexpr double kWaitingRate = 3000.0;  // waiting connections opened per second, all kinds

// The seed's defaults: 350 + 350 + 350 waiting connections, 5,000 GET/s for 25 s over 32
// keep-alive connections.
const ScenarioParameters kSeed{
    .count = 1050, .load_rate = 5000.0, .load_duration = 25s, .load_connections = 32};

Need needs_waiting(const Target& t) {
  return first_unmet(
      {stall_deadline(t, Stall::in_head).unmet, stall_deadline(t, Stall::in_handshake).unmet,
       need_deadline(t.deadlines.idle, "idle"),
       need_promise(t.promises.on_header_timeout, "header"), need_path(t.paths.health, "health")});
}

// Waiting connections of kind `k` (0 silent, 1 partial-header, 2 idle keep-alive): a third
// of the total each, the first kinds taking the remainder.
std::size_t share(std::size_t total, std::size_t k) { return total / 3 + (k < total % 3 ? 1 : 0); }

ClosureExpectation closure_of(std::string_view kind, const StallDeadline& deadline, Endings endings,
                              const Timing& timing) {
  return {.kind = std::string(kind),
          .since = deadline.since,
          .deadline = deadline.deadline,
          .slack = timing.slack,
          .endings = std::move(endings),
          .name = deadline.name};
}

Expectations expect_idle_under_load(const Target& t, const Timing& timing,
                                    const ScenarioParameters& p) {
  // Over TLS the silent third sends no hello: a handshake stall (kit::stall_deadline).
  const auto silent = stall_deadline(t, Stall::in_handshake);
  const auto head = stall_deadline(t, Stall::in_head);
  const auto idle = *t.deadlines.idle;
  Expectations e{.connections = p.count,
                 .patience = timing.patience_for(std::max({silent.deadline, head.deadline, idle})) +
                             timing.connect,
                 .closure = std::nullopt,
                 .kind_closures = {},
                 .load = LoadExpectation{.p99 = scaled_bound(t.promises.load_p99, timing),
                                         .pool = p.load_connections},
                 .fds_after = 0,
                 .recovery = timing.recovery};
  e.kind_closures = {
      closure_of(clients::kSilent, silent, endings_for_silent(t), timing),
      closure_of(clients::kPartialHeader, head, endings_for(*t.promises.on_header_timeout), timing),
      closure_of(clients::kIdleKeepalive, {.since = Since::last_response, .deadline = idle},
                 {ends::closed}, timing)};
  return e;
}

// Fleet k opens its share at a third of the rate, a third of a tick after fleet k-1, so the
// three together open evenly.
template <typename Options>
Options waiting(const DriveContext& c, std::size_t k, clients::Clock::time_point start) {
  auto options = options_for<Options>(c);
  options.fleet.count = share(c.expected.connections, k);
  const double rate = kWaitingRate / 3.0;
  options.fleet.pacing = {
      .start = start + std::chrono::duration_cast<Duration>(
                           std::chrono::duration<double>(static_cast<double>(k) / kWaitingRate)),
      .per_second = rate};
  options.fleet.source_offset = k * clients::kConnectionsPerSource;  // 127.0.0.2, .3, .4
  return options;
}

void drive_idle_under_load(clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  const auto start = c.start + 50ms;
  clients::spawn_load(io,
                      regular_traffic(c, start, 3 * clients::kConnectionsPerSource),  // 127.0.0.5
                      out.load.emplace());
  const auto waiting_start = start + kLoadLead;
  clients::spawn_silent(io, waiting<clients::SilentOptions>(c, 0, waiting_start), out.fleet());
  auto stalled = waiting<clients::PartialHeaderOptions>(c, 1, waiting_start);
  stalled.stall = clients::StallPoint::mid_header_value;
  clients::spawn_partial_header(io, stalled, out.fleet());
  auto unused = waiting<clients::IdleKeepaliveOptions>(c, 2, waiting_start);
  unused.path = *c.target.paths.health;
  clients::spawn_idle_keepalive(io, unused, out.fleet());
}

Scenario idle_under_load() {
  return {.id = "idle-under-load",
          .family = "load",
          .must =
              "close every waiting connection (silent, stalled head, unused keep-alive) within "
              "its deadline while serving open-loop regular traffic with 2xx, within its p99 "
              "bound, and give their FDs back while the load still runs",
          .unmet_need = needs_waiting,
          .expect = expect_idle_under_load,
          .drive = drive_idle_under_load,
          .default_count = kSeed.count,
          .load_defaults = kSeed};
}

}  // namespace

std::vector<Scenario> load_scenarios() { return {idle_under_load(), soak_scenario()}; }

}  // namespace loiter::suites
