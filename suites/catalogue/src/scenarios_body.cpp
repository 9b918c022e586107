// The body family: a complete head, then a stalled or trickled body, judged against the
// body deadline measured from the head the client sent.
#include "loiter/clients/http1/body_trickle.hpp"
#include "loiter/clients/http1/partial_body.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;

Need needs_body_promise(const Target& target) {
  return first_unmet({need_deadline(target.deadlines.body, "body"),
                      need_path(target.paths.echo, "echo (POST)"),
                      need_promise(target.promises.on_body_timeout, "body")});
}

Expectations expect_body_timeout(const Target& target, const Timing& timing,
                                 const ScenarioParameters& parameters) {
  return closure(Since::first_send, *target.deadlines.body,
                 endings_for(*target.promises.on_body_timeout), timing, parameters);
}

Scenario partial_body() {
  return {.id = "partial-body",
          .family = "body",
          .must = "answer a stalled body as declared (408 or close) within its body deadline",
          .unmet_need = needs_body_promise,
          .expect = expect_body_timeout,
          .drive = [](clients::asio::io_context& io, const DriveContext& c,
                      DriveOutput& out) {
            spawn_named(clients::kPartialBody, io, c, {.path = *c.target.paths.echo}, out);
          }};
}

Scenario body_trickle() {
  return {.id = "body-trickle",
          .family = "body",
          .must =
              "cut a body trickled a byte at a time at its body deadline: progress must not "
              "extend it",
          .unmet_need = [](const Target& target) -> Need {
            if (auto need = needs_body_promise(target)) return need;
            if (target.deadlines.body_resets_on_progress) {
              return "the target declares its body deadline runs between reads, so a "
                     "trickle legitimately extends it";
            }
            return std::nullopt;
          },
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                return allow_trickle_races(expect_body_timeout(t, timing, p),
                                           *t.promises.on_body_timeout);
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
                const auto interval =
                    std::max<Duration>(*c.target.deadlines.body / 5, std::chrono::milliseconds(50));
                spawn_named(clients::kBodyTrickle, io, c,
                            {.interval = interval, .path = *c.target.paths.echo}, out);
              }};
}

}  // namespace

std::vector<Scenario> body_scenarios() { return {partial_body(), body_trickle()}; }

}  // namespace loiter::suites
