// The h3 family: HTTP/3 over QUIC, where there is no TCP state to look at. Each stall only
// QUIC or HTTP/3 has — a handshake stopped inside its first Initial, a handshake never
// answered (the amplification limit), a connection left idle, a request stream whose
// HEADERS stop halfway or whose body trickles, a flow-control window never opened, a
// control stream closed — judged by the deadline the target declares in [h3], from each
// connection's own origin, with a window on both sides (a trickled HEADERS frame or body:
// progress must not extend it); and the exchanges the server must
// not cut (a window opened a little at a time, a long response, a stream). Skipped unless
// the target speaks HTTP/3 ([h3]); every other family is skipped on a target that does.
#include <fmt/format.h>

#include <algorithm>

#include "loiter/clients/h3/stalls.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

// A namespace of its own, not an anonymous one: the catalogue is built as one unity batch,
// where the h2 family's idle() or zero_window() would meet these.
namespace h3_family {

using namespace kit;
using namespace std::chrono_literals;
using H3Spawn = void (*)(clients::asio::io_context&, const clients::H3Options&,
                         std::vector<clients::ConnectionRecord>&);
using Expect = std::function<Expectations(const Target&, const Timing&, const ScenarioParameters&)>;
using Configure = std::function<void(const DriveContext&, clients::H3Options&)>;

constexpr std::size_t kH3Count = 50;                    // connections a scenario drives by default
constexpr std::uint64_t kClosedCriticalStream = 0x104;  // H3_CLOSED_CRITICAL_STREAM
constexpr double kAmplificationLimit = 3.0;             // RFC 9000 8.1
constexpr std::size_t kZeroWindowBytes = 1 << 20;       // far beyond the window the client gives
constexpr std::size_t kTrickleWindow = 4096;            // h3-window-trickle's step
constexpr std::size_t kTrickleSteps = 16;               // ... so many of them, 8 a send deadline
// A probe waits three PTOs for its answer; on loopback a PTO is milliseconds, before any
// RTT sample ngtcp2's is about a second: what a patience adds for it.
constexpr auto kProbeWait = 2s;
// An exchange's own length is the target's business (its path decides it).
constexpr auto kExchangeAllowance = 20s;

// The options every h3 kind shares: the fleet on the target's UDP port, its SNI, the
// health path.
clients::H3Options h3_options(const DriveContext& c) {
  auto options = options_for<clients::H3Options>(c);
  const auto& h3 = *c.target.h3;
  if (h3.port) options.fleet.target.port(*h3.port);
  options.server_name = h3.server_name;
  options.authority = h3.server_name.empty() ? c.target.host : h3.server_name;
  if (c.target.paths.health) options.path = *c.target.paths.health;
  return options;
}

Duration scaled(Duration d, const Timing& timing) {
  return std::chrono::duration_cast<Duration>(d * timing.scale);
}

Duration probe_wait(const Timing& timing) { return scaled(kProbeWait, timing); }

Scenario h3_scenario(std::string_view id, std::string_view must,
                     std::function<Need(const Target&)> unmet, Expect expect, H3Spawn spawn,
                     Configure configure = {}) {
  return {.id = id,
          .family = "h3",
          .must = must,
          .unmet_need = [unmet = std::move(unmet)](const Target& t) -> Need {
            if (auto need = need_h3(t)) return need;
            return unmet ? unmet(t) : std::nullopt;
          },
          .expect = std::move(expect),
          .drive =
              [spawn, configure = std::move(configure)](clients::asio::io_context& io,
                                                        const DriveContext& c, DriveOutput& out) {
                auto options = h3_options(c);
                if (configure) configure(c, options);
                spawn(io, options, out.fleet());
              },
          .default_count = kH3Count};
}

// The h3 deadline called `name`, or the reason to skip.
Need need_h3_deadline(const std::optional<Duration>& deadline, std::string_view name) {
  if (deadline) return std::nullopt;
  return fmt::format("the target declares no HTTP/3 {} deadline ([h3] {})", name, name);
}

// Probes on both sides of a deadline the server may keep silently: early ones 1.5 slacks
// before it (inside it by more than the window), late ones half a slack after it.
Duration early_probe(Duration deadline, const Timing& timing) {
  return deadline - timing.slack * 3 / 2;
}
Duration late_probe(Duration deadline, const Timing& timing) { return deadline + timing.slack / 2; }

// A stalled request stream ends at `deadline` ([h3] `name`) from `since`, a moment of the
// client's first send (the stream's open, its HEADERS, the request): where the target promises
// a 408 (`answers_408`), its 408 and nothing else; otherwise the server's RESET_STREAM or
// STOP_SENDING, the connection's end, or a 408 (RFC 9114 4.1 lets a server answer a request
// before it is whole, and the answer says why).
Expectations stream_closure(Since since, Duration deadline, std::string name, std::string progress,
                            bool answers_408, const Timing& timing, const ScenarioParameters& p) {
  auto endings = answers_408 ? Endings{ends::stream_answered(408)}
                             : Endings{ends::stream_reset, ends::stream_answered(408), ends::closed,
                                       ends::reset};
  auto expected = closure(since, deadline, std::move(endings), timing, p);
  expected.closure->key = "[h3] " + name;
  expected.closure->name = std::move(name);
  expected.closure->stream = true;
  expected.closure->progress = std::move(progress);
  expected.fds_after = 0;
  return expected;
}

Scenario initial_stall() {
  return {
      .id = clients::kH3InitialStall,
      .family = "h3",
      .must =
          "forget a connection whose first Initial carries only part of its ClientHello by the "
          "handshake deadline ([h3] handshake) from that Initial: a second Initial before it is "
          "answered as the same connection, one after it is not",
      .unmet_need = [](const Target& t) -> Need {
        if (auto need = need_h3(t)) return need;
        return need_h3_deadline(t.h3->handshake, "handshake");
      },
      .expect =
          [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
            const auto deadline = *t.h3->handshake;
            auto expected = recovery_only(
                timing.patience_for(deadline) + scaled(kProbeWait, timing), timing, p);
            expected.h3 = H3Expectation{.deadline = deadline,
                                        .since = Since::first_initial,
                                        .slack = timing.slack,
                                        .name = "handshake",
                                        .key = "[h3] handshake"};
            return expected;
          },
      // Two fleets: the first half probes before the deadline, the second after it.
      .drive =
          [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
            const auto deadline = *c.target.h3->handshake;
            auto early = h3_options(c);
            const auto count = early.fleet.count;
            early.fleet.count = (count + 1) / 2;
            early.probe_after = early_probe(deadline, c.timing);
            auto late = h3_options(c);
            late.fleet.count = count - early.fleet.count;
            late.fleet.source_offset = early.fleet.count;
            late.probe_after = late_probe(deadline, c.timing);
            clients::spawn_h3_initial_stall(io, early, out.fleet());
            if (late.fleet.count > 0) clients::spawn_h3_initial_stall(io, late, out.fleet());
          },
      .default_count = kH3Count,
      .most_count = 2'000};
}

Scenario amplification() {
  return h3_scenario(
      clients::kH3Amplification,
      "send at most three times the bytes it received to a client that sent one whole Initial "
      "and never answered (RFC 9000 8.1), its retransmissions included",
      {},
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        const auto handshake = t.h3->handshake.value_or(10s);
        auto expected = recovery_only(timing.patience_for(handshake), timing, p);
        expected.h3 = H3Expectation{.amplification = kAmplificationLimit};
        return expected;
      },
      clients::spawn_h3_amplification);
}

Scenario idle() {
  return h3_scenario(
      clients::kH3Idle,
      "forget a connection that sends nothing after its handshake by the idle timeout it "
      "advertised ([h3] idle), from the client's last packet: a PING before it is answered, "
      "one after it is not (or a CONNECTION_CLOSE comes in the window)",
      [](const Target& t) { return need_h3_deadline(t.h3->idle, "idle"); },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        const auto deadline = *t.h3->idle;
        auto expected =
            recovery_only(timing.patience_for(deadline) + scaled(kProbeWait, timing), timing, p);
        expected.h3 = H3Expectation{.deadline = deadline,
                                    .since = Since::quiet,
                                    .slack = timing.slack,
                                    .name = "idle",
                                    .key = "[h3] idle",
                                    .idle_advertised = t.h3->idle_advertised};
        return expected;
      },
      clients::spawn_h3_idle,
      [](const DriveContext& c, clients::H3Options& options) {
        const auto deadline = *c.target.h3->idle;
        options.probe_after = late_probe(deadline, c.timing);
        options.early_probe_after = early_probe(deadline, c.timing);
      });
}

Scenario headers_stall() {
  return h3_scenario(
      clients::kH3HeadersStall,
      "end a request stream whose HEADERS frame stops halfway, on a connection the client keeps "
      "alive with PINGs, at the header deadline ([h3] header) from the stream's open: "
      "RESET_STREAM / STOP_SENDING (H3_REQUEST_INCOMPLETE), a 408, or the connection's end",
      [](const Target& t) {
        return first_unmet(
            {need_h3_deadline(t.h3->header, "header"), need_path(t.paths.health, "health")});
      },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        return stream_closure(Since::stream_open, *t.h3->header, "header", "", t.h3->header_408,
                              timing, p);
      },
      clients::spawn_h3_headers_stall);
}

// The HEADERS frame trickled: one byte of its field section every fifth of the header
// deadline (as header-trickle does over HTTP/1.1), so a server whose deadline each byte
// re-arms never ends it; its PINGs keep the connection from its idle timeout.
Scenario headers_trickle() {
  return h3_scenario(
      clients::kH3HeadersTrickle,
      "end a request stream whose HEADERS frame comes a byte at a time, on a connection the "
      "client keeps alive with PINGs, at the header deadline ([h3] header) from the stream's "
      "open: progress must not extend it",
      [](const Target& t) {
        return first_unmet(
            {need_h3_deadline(t.h3->header, "header"), need_path(t.paths.health, "health")});
      },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        return stream_closure(Since::stream_open, *t.h3->header, "header", "header byte",
                              t.h3->header_408, timing, p);
      },
      clients::spawn_h3_headers_trickle,
      [](const DriveContext& c, clients::H3Options& options) {
        options.interval = *c.target.h3->header / 5;
      });
}

Scenario data_trickle() {
  return h3_scenario(
      clients::kH3DataTrickle,
      "end a request stream whose body comes a byte at a time at the body deadline ([h3] body) "
      "from its HEADERS: progress must not extend it",
      [](const Target& t) {
        return first_unmet({need_h3_deadline(t.h3->body, "body"), need_path(t.paths.echo, "echo")});
      },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        return stream_closure(Since::stream_headers, *t.h3->body, "body", "body byte",
                              t.h3->body_408, timing, p);
      },
      clients::spawn_h3_data_trickle,
      [](const DriveContext& c, clients::H3Options& options) {
        options.echo_path = *c.target.paths.echo;
        // Four bytes a deadline: progress well inside it, never the whole body by it.
        options.interval = *c.target.h3->body / 4;
        options.body_bytes = 64;
      });
}

Scenario zero_window() {
  return h3_scenario(
      clients::kH3ZeroWindow,
      "end a response whose client never extends its stream's flow-control window at the send "
      "deadline ([h3] send) from the request (its STREAM_DATA_BLOCKED frames are no progress): "
      "RESET_STREAM, or the connection's end",
      [](const Target& t) {
        return first_unmet(
            {need_h3_deadline(t.h3->send, "send"), need_path(t.paths.large, "large")});
      },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        // A response already under way: no 408 to promise, whatever the stalls get.
        return stream_closure(Since::stream_request, *t.h3->send, "send", "", false, timing, p);
      },
      clients::spawn_h3_zero_window,
      [](const DriveContext& c, clients::H3Options& options) {
        options.large_path = large_path(c.target, kZeroWindowBytes);
        options.initial_stream_window = 1024;
      });
}

// h3-window-trickle: kTrickleSteps windows of kTrickleWindow bytes, one every eighth of the
// send deadline: the response takes twice the deadline, never blocked for long.
Scenario window_trickle() {
  return h3_scenario(
      clients::kH3WindowTrickle,
      "not cut a response whose client extends its stream window a little at a time, well "
      "inside the send deadline, for twice that deadline",
      [](const Target& t) {
        return first_unmet(
            {need_h3_deadline(t.h3->send, "send"), need_path(t.paths.large, "large")});
      },
      [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
        const auto send = *t.h3->send;
        const auto allowance = scaled(kExchangeAllowance, timing);
        return completion(1, send, timing.patience_for(send * 2) + allowance, timing, p);
      },
      clients::spawn_h3_window_trickle,
      [](const DriveContext& c, clients::H3Options& options) {
        const auto send = *c.target.h3->send;
        options.large_path = large_path(c.target, kTrickleWindow * kTrickleSteps);
        options.initial_stream_window = kTrickleWindow;
        options.window_increment = kTrickleWindow;
        options.interval = send / 8;
      });
}

Scenario control_close() {
  return h3_scenario(
      "h3-control-stream-close",  // its client kind: h3-control-close
      "close the connection with H3_CLOSED_CRITICAL_STREAM when the client closes its control "
      "stream (RFC 9114 6.2.1)",
      {},
      [](const Target&, const Timing& timing, const ScenarioParameters& p) {
        auto expected = recovery_only(scaled(3s, timing), timing, p);
        expected.h3 = H3Expectation{.close_code = kClosedCriticalStream};
        return expected;
      },
      clients::spawn_h3_control_close);
}

// The longest HTTP/3 request-wait deadline the target declares: what a long exchange must
// outlive.
Duration h3_wait(const Target& t) {
  return std::max(t.h3->header.value_or(Duration{}), t.h3->idle.value_or(Duration{}));
}

Need needs_h3_wait(const Target& t) {
  if (t.h3->header || t.h3->idle) return std::nullopt;
  return std::string(
      "the target declares no HTTP/3 header or idle deadline that could cut an "
      "exchange");
}

Expectations expect_long(const Target& t, const Timing& timing, const ScenarioParameters& p) {
  const auto deadline = h3_wait(t);
  return completion(1, deadline, timing.patience_for(deadline) + scaled(kExchangeAllowance, timing),
                    timing, p);
}

Scenario long_response() {
  return h3_scenario(
      clients::kH3LongResponse,
      "not cut a request stream whose response comes after the HTTP/3 header and idle deadlines "
      "(a slow handler)",
      [](const Target& t) {
        return first_unmet({needs_h3_wait(t), need_path(t.paths.long_response, "long-response")});
      },
      expect_long, clients::spawn_h3_long_response,
      [](const DriveContext& c, clients::H3Options& options) {
        options.long_path = *c.target.paths.long_response;
      });
}

Scenario stream() {
  return h3_scenario(
      clients::kH3Stream,
      "not cut a request stream whose response streams for longer than the HTTP/3 header and "
      "idle deadlines",
      [](const Target& t) {
        return first_unmet({needs_h3_wait(t), need_path(t.paths.stream, "stream")});
      },
      expect_long, clients::spawn_h3_stream,
      [](const DriveContext& c, clients::H3Options& options) {
        options.long_path = *c.target.paths.stream;
      });
}

}  // namespace h3_family

std::vector<Scenario> h3_scenarios() {
  namespace f = h3_family;
  return {f::initial_stall(),   f::amplification(), f::idle(),        f::headers_stall(),
          f::headers_trickle(), f::data_trickle(),  f::zero_window(), f::window_trickle(),
          f::control_close(),   f::long_response(), f::stream()};
}

}  // namespace loiter::suites
