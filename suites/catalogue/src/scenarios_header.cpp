// The header family: stalled and trickled request heads, judged against the header
// deadline measured from each connection's own connect (over TLS, from connect or from the
// handshake's completion, as the target's [tls] header_from says; silent, which over TLS
// sends no hello, as a handshake stall: kit::stall_deadline).
#include "loiter/clients/http1/header_lines.hpp"
#include "loiter/clients/http1/header_trickle.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;

// A head that stalls is answered as the target declares (408 or close).
Need needs_head_promise(const Target& target) {
  return first_unmet({stall_deadline(target, Stall::in_head).unmet,
                      need_promise(target.promises.on_header_timeout, "header")});
}

Expectations expect_head_timeout(const Target& target, const Timing& timing,
                                 const ScenarioParameters& parameters) {
  return stall_closure(target, Stall::in_head, endings_for(*target.promises.on_header_timeout),
                       timing, parameters);
}

Scenario silent() {
  return {
      .id = "silent",
      .family = "header",
      .must = "close a connection that sends nothing within its header deadline",
      .unmet_need = [](const Target& t) { return stall_deadline(t, Stall::in_handshake).unmet; },
      .expect =
          [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
            return stall_closure(t, Stall::in_handshake, endings_for_silent(t), timing, p);
          },
      .drive = [](clients::asio::io_context& io, const DriveContext& c,
                  DriveOutput& out) { spawn_named(clients::kSilent, io, c, {}, out); }};
}

Scenario partial_header() {
  return {.id = "partial-header",
          .family = "header",
          .must = "answer a head stalled mid-field as declared, within its header deadline",
          .unmet_need = needs_head_promise,
          .expect = expect_head_timeout,
          .drive = [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
            auto options = options_for<clients::PartialHeaderOptions>(c);
            options.stall = clients::StallPoint::mid_header_value;
            clients::spawn_partial_header(io, options, out.fleet());
          }};
}

Scenario header_trickle() {
  return {.id = "header-trickle",
          .family = "header",
          .must =
              "close a head trickled a byte at a time at the header deadline from connect: "
              "progress must not extend it",
          .unmet_need = needs_head_promise,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                auto expected = allow_trickle_races(expect_head_timeout(t, timing, p),
                                                    *t.promises.on_header_timeout);
                expected.closure->progress = "header byte";
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                // About five bytes per deadline: progress well inside it, every time.
                const auto interval = std::max<Duration>(*c.target.deadlines.header / 5,
                                                         std::chrono::milliseconds(50));
                spawn_named(clients::kHeaderTrickle, io, c, {.interval = interval}, out);
              }};
}

// The line-by-line slowloris: a deadline re-armed by each complete header line never fires.
Scenario header_lines() {
  return {.id = "header-lines",
          .family = "header",
          .must =
              "close a head sent a whole header line at a time at the header deadline from "
              "connect: complete lines must not extend it",
          .unmet_need = needs_head_promise,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                auto expected = allow_trickle_races(expect_head_timeout(t, timing, p),
                                                    *t.promises.on_header_timeout);
                expected.closure->progress = "header line";
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                // About three whole lines per deadline, each a complete line well inside it.
                const auto interval = std::max<Duration>(*c.target.deadlines.header / 3,
                                                         std::chrono::milliseconds(50));
                spawn_named(clients::kHeaderLines, io, c, {.interval = interval}, out);
              }};
}

}  // namespace

std::vector<Scenario> header_scenarios() {
  return {silent(), partial_header(), header_trickle(), header_lines()};
}

}  // namespace loiter::suites
