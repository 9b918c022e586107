// The h2 family: stalls only HTTP/2 has — a connection preface cut short, SETTINGS never
// acknowledged, a connection idle after its stream, a header block never ended, a request
// body trickled as DATA, a flow-control window never opened — each judged by the deadline the
// target declares, and two exchanges the server must not cut: a window opened a little at a
// time, and a connection reused inside its idle deadline. Skipped unless the target speaks
// HTTP/2 ([h2]); the stream deadlines are the target's own (fixtures::H2).
#include <algorithm>

#include "h2_plan.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace h2_plan;
using H2Spawn = void (*)(clients::asio::io_context&, const clients::H2Options&,
                       std::vector<clients::ConnectionRecord>&);

// The options every h2 kind shares: the fleet's, and the health path to ask.
clients::H2Options h2_options(const DriveContext& c) {
  auto options = options_for<clients::H2Options>(c);
  if (c.target.paths.health) options.path = *c.target.paths.health;
  return options;
}

using Expect = std::function<Expectations(const Target&, const Timing&, const ScenarioParameters&)>;
using Configure = std::function<void(const DriveContext&, clients::H2Options&)>;

// A scenario of the family: skipped without [h2], then for its own needs.
Scenario h2_scenario(std::string_view id, std::string_view must,
                     std::function<Need(const Target&)> unmet, Expect expect, H2Spawn spawn,
                     Configure configure = {}) {
  return {.id = id,
          .family = "h2",
          .must = must,
          .unmet_need = [unmet = std::move(unmet)](const Target& t) -> Need {
            if (auto need = need_h2(t)) return need;
            return unmet(t);
          },
          .expect = std::move(expect),
          .drive =
              [spawn, configure = std::move(configure)](clients::asio::io_context& io,
                                                        const DriveContext& c, DriveOutput& out) {
                auto options = h2_options(c);
                if (configure) configure(c, options);
                spawn(io, options, out.fleet());
              }};
}

Scenario partial_preface() {
  return h2_scenario(
      clients::kH2PartialPreface,
      "close a connection whose HTTP/2 preface stops after 16 of its 24 bytes, at the preface "
      "deadline ([h2] preface) or else the header deadline, from connect",
      [](const Target& t) { return preface_deadline(t).unmet; },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        const auto chosen = preface_deadline(t);
        auto expected = closure(chosen.since, chosen.deadline, kPrefaceEndings, timing, p);
        expected.closure->name = chosen.name;
        return expected;
      },
      clients::spawn_h2_partial_preface);
}

Scenario no_settings_ack() {
  return h2_scenario(
      clients::kH2NoSettingsAck,
      "close a connection that never acknowledges the server's SETTINGS (RFC 9113 6.5.3), "
      "not before the earlier of its header and idle deadlines and by the later one",
      needs_settings_window, expect_settings_window, clients::spawn_h2_no_settings_ack);
}

Scenario idle() {
  return h2_scenario(
      clients::kH2Idle,
      "send GOAWAY and close a connection left idle after its stream was answered, at the idle "
      "deadline from that answer",
      needs_idle,
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        auto expected =
            closure(Since::last_response, *t.deadlines.idle, idle_endings(t), timing, p);
        expected.closure->name = "idle";
        expected.completion = CompletionExpectation{.responses = 1, .status = 200};
        return expected;
      },
      clients::spawn_h2_idle);
}

Scenario headers_no_end() {
  return h2_scenario(
      clients::kH2HeadersNoEnd,
      "end a stream whose HEADERS never end (no END_HEADERS, no CONTINUATION) at the header "
      "deadline from connect: its RST_STREAM, or GOAWAY and close",
      [](const Target& t) {
        return first_unmet(
            {stall_deadline(t, Stall::in_head).unmet, need_path(t.paths.health, "health")});
      },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        auto expected = stall_closure(t, Stall::in_head, kHeaderBlockEndings, timing, p);
        expected.closure->name = "header";
        // The stream ends the stall: a RST_STREAM frees it (nginx's, at client_header_timeout),
        // the idle deadline then ends the connection.
        expected.closure->stream = true;
        return expected;
      },
      clients::spawn_h2_headers_no_end);
}

Scenario data_trickle() {
  return h2_scenario(
      clients::kH2DataTrickle,
      "end a stream whose request body comes as DATA a byte at a time at its body deadline "
      "from the request: progress must not extend it",
      needs_data_trickle, expect_data_trickle, clients::spawn_h2_data_trickle,
      [](const DriveContext& c, clients::H2Options& options) {
        options.echo_path = *c.target.paths.echo;
        options.interval = trickle_interval(*c.target.deadlines.body);
      });
}

Scenario zero_window() {
  return h2_scenario(
      clients::kH2ZeroWindow,
      "end a stream whose client never opens its flow-control window (INITIAL_WINDOW_SIZE 0) "
      "at the send deadline from the request: a RST_STREAM, or GOAWAY and close",
      needs_zero_window, expect_zero_window, clients::spawn_h2_zero_window,
      [](const DriveContext& c, clients::H2Options& options) {
        options.large_path = large_path(c.target, kZeroWindowBytes);
      });
}

Scenario window_trickle() {
  return h2_scenario(
      clients::kH2WindowTrickle,
      "not cut a stream whose client opens its window a little at a time, well inside the "
      "send deadline, for longer than the send and request-wait deadlines",
      needs_window_trickle, expect_window_trickle, clients::spawn_h2_window_trickle,
      [](const DriveContext& c, clients::H2Options& options) {
        const auto plan = window_plan(c.target);
        options.large_path = large_path(c.target, plan.bytes);
        options.interval = plan.interval;
        options.window_increment = plan.increment;
      });
}

Scenario stream_reuse() {
  return h2_scenario(
      clients::kH2StreamReuse,
      "answer a second stream opened inside the idle deadline, then send GOAWAY and close at "
      "the idle deadline from that second answer",
      needs_idle,
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        const auto idle = *t.deadlines.idle;
        auto expected = closure(Since::last_response, idle, idle_endings(t), timing, p);
        expected.closure->name = "idle";
        expected.patience = timing.patience_for(idle) * 2;
        expected.completion = CompletionExpectation{.responses = 2, .status = 200};
        return expected;
      },
      clients::spawn_h2_stream_reuse,
      [](const DriveContext& c, clients::H2Options& options) {
        options.reuse_after = reuse_after(c.target);
      });
}

}  // namespace

std::vector<Scenario> h2_scenarios() {
  return {partial_preface(), no_settings_ack(), idle(),           headers_no_end(),
          data_trickle(),    zero_window(),     window_trickle(), stream_reuse()};
}

}  // namespace loiter::suites
