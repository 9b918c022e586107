// idle-under-load, the seed's headline test: waiting connections — a third silent, a third
// with a stalled head, a third unused keep-alive — opened while open-loop regular traffic
// runs. On an HTTP/2 target ([h2]) both sides speak h2: the waiting thirds are a preface cut
// short, a header block never ended and a connection idle after one answered stream, and
// the regular traffic is streams multiplexed over the pool. On an HTTP/3 target ([h3]) both
// sides speak h3 over QUIC: the thirds are a first Initial cut mid-ClientHello, a HEADERS
// frame stopped halfway on a connection kept alive with PINGs, and a connection idle after
// its handshake, each judged as its h3 twin is (the silent deadlines by probes on both sides
// of them), and the regular traffic is request streams on a pool of QUIC connections. The server must close every waiting
// connection within its own deadline, answer every dispatched regular request with 2xx within the
// target's p99 bound, give the waiting connections' FDs back while the load still runs, and every
// FD once it ends.

#include <algorithm>

#include "h2_plan.hpp"
#include "loiter/clients/h2/stalls.hpp"
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
// Waiting connections opened per second, all kinds. Over TLS a third of that: each one costs
// a handshake on both ends, and 1,050 of them in a third of a second measure how fast a
// server handshakes, not what connections that wait cost it (measured on 2 cores: the
// reference server's one thread then fired a third of its 2 s header deadlines 0.37 s late;
// at 1,000/s none were).
constexpr double kWaitingRate = 3000.0;
constexpr double kWaitingRateTls = 1000.0;
// Over HTTP/3 half that again: two of the three thirds make a whole QUIC handshake, and every
// packet of every connection costs both ends its AEAD besides (measured on 2 cores, the
// reference server's one thread beside 5,000 request streams a second: at 1,000 a second it
// fell ~0.3 s behind while they opened, 2.2 MB waiting in its socket, the regular p99 at
// 221 ms and a fifth of its header deadlines 80 ms past their slack).
constexpr double kWaitingRateH3 = 500.0;

double waiting_rate(const Target& t) {
  if (t.h3) return kWaitingRateH3;
  return t.tls ? kWaitingRateTls : kWaitingRate;
}

// The seed's defaults: 350 + 350 + 350 waiting connections, 5,000 GET/s for 25 s over 32
// keep-alive connections.
const ScenarioParameters kSeed{
    .count = 1050, .load_rate = 5000.0, .load_duration = 25s, .load_connections = 32};

// Over HTTP/2: the preface deadline (or the header deadline), the header deadline of a
// stream's block, the idle deadline; no 408 is promised (h2 ends a stall with GOAWAY or
// RST_STREAM).
Need needs_waiting_h2(const Target& t) {
  return first_unmet({h2_plan::preface_deadline(t).unmet, stall_deadline(t, Stall::in_head).unmet,
                      need_deadline(t.deadlines.idle, "idle"),
                      need_path(t.paths.health, "health")});
}

// Over HTTP/3: the handshake deadline, the header deadline of a request stream, the idle
// timeout (a 408 or a reset both end a stalled stream).
Need needs_waiting_h3(const Target& t) {
  using h3_family::need_h3_deadline;
  return first_unmet({need_h3_deadline(t.h3->handshake, "handshake"),
                      need_h3_deadline(t.h3->header, "header"),
                      need_h3_deadline(t.h3->idle, "idle"), need_path(t.paths.health, "health")});
}

Need needs_waiting(const Target& t) {
  if (t.h3) return needs_waiting_h3(t);
  if (t.h2) return needs_waiting_h2(t);
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

// The h2 thirds: the preface's closure from connect (or the handshake); the header block's
// ends its stream (a RST_STREAM, nginx's, then the idle deadline ends the connection: the
// patience covers both); the idle connection's from its answer, with the GOAWAY the target
// promises.
void expect_waiting_h2(const Target& t, const Timing& timing, Expectations& e) {
  const auto preface = h2_plan::preface_deadline(t);
  const auto head = stall_deadline(t, Stall::in_head);
  const auto idle = *t.deadlines.idle;
  e.patience =
      timing.patience_for(std::max(preface.deadline, head.deadline + idle)) + timing.connect;
  auto block = closure_of(clients::kH2HeadersNoEnd, head, h2_plan::kHeaderBlockEndings, timing);
  block.name = "header";
  block.stream = true;
  e.kind_closures = {
      closure_of(clients::kH2PartialPreface, preface, h2_plan::kPrefaceEndings, timing),
      std::move(block),
      closure_of(clients::kH2Idle,
                 {.since = Since::last_response, .deadline = idle, .name = "idle"},
                 h2_plan::idle_endings(t), timing)};
}

// The h3 thirds: the cut Initial's handshake deadline from that Initial and the idle
// connection's from its last packet, by probes on both sides of each (the server keeps both
// silently); the stalled HEADERS's stream ends by the header deadline from its open.
void expect_waiting_h3(const Target& t, const Timing& timing, const ScenarioParameters& p,
                       Expectations& e) {
  const auto& h3 = *t.h3;
  e.patience = timing.patience_for(std::max({*h3.handshake, *h3.header, *h3.idle})) +
               h3_family::probe_wait(timing) + timing.connect;
  auto head = *h3_family::stream_closure(Since::stream_open, *h3.header, "header", "",
                                         h3.header_408, timing, p)
                   .closure;
  head.kind = clients::kH3HeadersStall;
  e.kind_closures = {std::move(head)};
  e.kind_h3 = {{.kind = std::string(clients::kH3InitialStall),
                .deadline = *h3.handshake,
                .since = Since::first_initial,
                .slack = timing.slack,
                .name = "handshake",
                .key = "[h3] handshake"},
               {.kind = std::string(clients::kH3Idle),
                .deadline = *h3.idle,
                .since = Since::quiet,
                .slack = timing.slack,
                .name = "idle",
                .key = "[h3] idle",
                .idle_advertised = h3.idle_advertised}};
}

Expectations expect_idle_under_load(const Target& t, const Timing& timing,
                                    const ScenarioParameters& p) {
  if (t.h2 || t.h3) {
    Expectations e{.connections = p.count,
                   .load = LoadExpectation{.p99 = scaled_bound(t.promises.load_p99, timing),
                                           .pool = p.load_connections},
                   .fds_after = 0,
                   .recovery = timing.recovery};
    if (t.h3) {
      expect_waiting_h3(t, timing, p, e);
    } else {
      expect_waiting_h2(t, timing, e);
    }
    return e;
  }
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
void pace_third(clients::FleetSpec& fleet, const DriveContext& c, std::size_t k,
                clients::Clock::time_point start) {
  fleet.count = share(c.expected.connections, k);
  const double all = waiting_rate(c.target);
  fleet.pacing = {.start = start + std::chrono::duration_cast<Duration>(
                                       std::chrono::duration<double>(static_cast<double>(k) / all)),
                  .per_second = all / 3.0};
  fleet.source_offset = k * clients::kConnectionsPerSource;  // 127.0.0.2, .3, .4
}

template <typename Options>
Options waiting(const DriveContext& c, std::size_t k, clients::Clock::time_point start) {
  auto options = options_for<Options>(c);
  pace_third(options.fleet, c, k, start);
  return options;
}

clients::H3Options waiting_h3(const DriveContext& c, std::size_t k,
                              clients::Clock::time_point start) {
  auto options = h3_family::h3_options(c);
  pace_third(options.fleet, c, k, start);
  return options;
}

// The h3 thirds, each an h3 kind's fleet on the target's UDP port. The cut Initials probe
// as h3-initial-stall's do: the first half before the handshake deadline, the rest after it,
// every other one of the idle third before its deadline (the kind's own), the rest after.
void spawn_waiting_h3(clients::asio::io_context& io, const DriveContext& c,
                      clients::Clock::time_point start, DriveOutput& out) {
  const auto& h3 = *c.target.h3;
  auto early = waiting_h3(c, 0, start);
  auto late = early;
  early.fleet.count = (late.fleet.count + 1) / 2;
  early.probe_after = h3_family::early_probe(*h3.handshake, c.timing);
  late.fleet.count -= early.fleet.count;
  late.fleet.source_offset += early.fleet.count;
  late.fleet.pacing.start += std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(static_cast<double>(early.fleet.count) /
                                    early.fleet.pacing.per_second));
  late.probe_after = h3_family::late_probe(*h3.handshake, c.timing);
  clients::spawn_h3_initial_stall(io, early, out.fleet());
  if (late.fleet.count > 0) clients::spawn_h3_initial_stall(io, late, out.fleet());
  clients::spawn_h3_headers_stall(io, waiting_h3(c, 1, start), out.fleet());
  auto idle = waiting_h3(c, 2, start);
  idle.probe_after = h3_family::late_probe(*h3.idle, c.timing);
  idle.early_probe_after = h3_family::early_probe(*h3.idle, c.timing);
  clients::spawn_h3_idle(io, idle, out.fleet());
}

// The h2 thirds, each an h2 kind's fleet (over the target's TLS when it has one, ALPN h2).
void spawn_waiting_h2(clients::asio::io_context& io, const DriveContext& c,
                      clients::Clock::time_point start, DriveOutput& out) {
  const auto path = *c.target.paths.health;
  auto preface = waiting<clients::H2Options>(c, 0, start);
  clients::spawn_h2_partial_preface(io, preface, out.fleet());
  auto block = waiting<clients::H2Options>(c, 1, start);
  block.path = path;
  clients::spawn_h2_headers_no_end(io, block, out.fleet());
  auto idle = waiting<clients::H2Options>(c, 2, start);
  idle.path = path;
  clients::spawn_h2_idle(io, idle, out.fleet());
}

void drive_idle_under_load(clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  const auto start = c.start + 50ms;
  auto regular = regular_traffic(c, start, 3 * clients::kConnectionsPerSource);  // 127.0.0.5
  clients::spawn_load(load_io(io, c), regular, out.load.emplace());
  const auto waiting_start = start + kLoadLead;
  if (c.target.h3) return spawn_waiting_h3(io, c, waiting_start, out);
  if (c.target.h2) return spawn_waiting_h2(io, c, waiting_start, out);
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
              "close every waiting connection (silent, stalled head, unused keep-alive; over "
              "HTTP/2 a preface cut short, a header block never ended, an idle connection; over "
              "HTTP/3 a first Initial cut short, a HEADERS frame stopped halfway, an idle "
              "connection) "
              "within its deadline while serving open-loop regular traffic with 2xx, within its "
              "p99 bound, and give their FDs back while the load still runs",
          .unmet_need = needs_waiting,
          .expect = expect_idle_under_load,
          .drive = drive_idle_under_load,
          .default_count = kSeed.count,
          .load_defaults = kSeed};
}

}  // namespace

std::vector<Scenario> load_scenarios() { return {idle_under_load(), soak_scenario()}; }

}  // namespace loiter::suites
