// The keep-alive family: a connection left unused after its response is closed at the idle
// deadline (from that response), one reused inside it is served and then closed at the idle
// deadline from its last response, and one whose next head stalls is closed under the header
// deadline.
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/keepalive_partial.hpp"
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
                return closure(Since::last_response, *t.deadlines.idle, {ends::closed}, timing, p);
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                spawn_named(clients::kIdleKeepalive, io, c, {.path = *c.target.paths.health}, out);
              }};
}

Scenario keepalive_reuse() {
  return {.id = "keepalive-reuse",
          .family = "keepalive",
          .must =
              "serve a second request on a connection reused inside its idle deadline, then "
              "close it within the idle deadline from that second response",
          .unmet_need = needs_idle,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                // Reused at half the idle deadline: nothing to outlive, two answers to give,
                // then the idle deadline again, from the second answer.
                const auto idle = *t.deadlines.idle;
                auto expected = closure(Since::last_response, idle, {ends::closed}, timing, p);
                expected.closure->name = "idle";
                expected.patience = timing.patience_for(idle) * 2;
                expected.completion = CompletionExpectation{.responses = 2, .status = 200};
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                auto options = options_for<clients::KeepaliveReuseOptions>(c);
                options.path = *c.target.paths.health;
                options.reuse_after = *c.target.deadlines.idle / 2;
                options.requests = 2;
                clients::spawn_keepalive_reuse(io, options, out.fleet());
              }};
}

Need needs_next_head(const Target& target) {
  if (auto need = first_unmet({needs_idle(target), need_deadline(target.deadlines.header, "header"),
                               need_promise(target.promises.on_header_timeout, "header")})) {
    return need;
  }
  if (target.deadlines.next_head_from) return std::nullopt;
  return std::string(
      "the target does not declare where a later request's head deadline runs from "
      "(deadlines.next_head_from: \"first-byte\" or \"last-response\")");
}

// The pause between the first response and the stalled second head: inside the idle deadline.
Duration partial_pause(const Target& target) { return *target.deadlines.idle / 4; }

Scenario keepalive_partial() {
  return {.id = "keepalive-partial",
          .family = "keepalive",
          .must =
              "close a kept-alive connection whose next request head stalls halfway, within "
              "the header deadline from where the target says it runs (its first byte, or the "
              "last response)",
          .unmet_need = needs_next_head,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                const auto header = *t.deadlines.header;
                const auto since = *t.deadlines.next_head_from == fixtures::NextHeadFrom::first_byte
                                       ? Since::second_send
                                       : Since::last_response;
                auto expected =
                    closure(since, header, endings_for(*t.promises.on_header_timeout), timing, p);
                expected.closure->name = "header";
                expected.patience = partial_pause(t) + timing.patience_for(header);
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                spawn_named(clients::kKeepalivePartial, io, c,
                            {.pause = partial_pause(c.target), .path = *c.target.paths.health},
                            out);
              }};
}

}  // namespace

std::vector<Scenario> keepalive_scenarios() {
  return {idle_keepalive(), keepalive_reuse(), keepalive_partial()};
}

}  // namespace loiter::suites
