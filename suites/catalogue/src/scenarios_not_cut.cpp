// The must-not-cut-off family: legitimate exchanges that outlast the request-wait deadlines
// (a slow reader, a slow handler, a stream). The server must let them complete.
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/slow_reader.hpp"
#include "loiter/clients/http1/websocket_hold.hpp"
#include "loiter/clients/transport/buffers.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace std::chrono_literals;

// An exchange's own length is the target's business (its path decides it); clients wait
// this much longer than the deadline it must outlive, and stop by themselves after.
constexpr auto kExchangeAllowance = 20s;

Need needs_request_wait(const Target& target) {
  if (target.deadlines.header || target.deadlines.idle) return std::nullopt;
  return "the target declares no header or idle deadline that could cut an exchange";
}

Expectations expect_whole_response(const Target& t, const Timing& timing,
                                   const ScenarioParameters& p) {
  const auto deadline = request_wait(t);
  const auto allowance = std::chrono::duration_cast<Duration>(kExchangeAllowance * timing.scale);
  return completion(1, deadline, timing.patience_for(deadline) + allowance, timing, p);
}

// GET `path`, read the whole response, then wait (the idle-keepalive client).
void get_whole(clients::asio::io_context& io, const DriveContext& c, const std::string& path,
               DriveOutput& out) {
  spawn_named(clients::kIdleKeepalive, io, c, {.path = path}, out);
}

// slow-reader's pace: it asks a receive buffer of kSlowReceiveBuffer and reads a quarter of
// what the kernel gives it per turn (the buffer refills between turns, so each read is
// whole), at an interval that spreads a stalling response over twice the request-wait
// deadline. 100 readers move ~100 x 8 MiB through loopback in that time.
constexpr int kSlowReceiveBuffer = 64 * 1024;

clients::SlowReaderOptions slow_reader_options(const DriveContext& c) {
  auto options = options_for<clients::SlowReaderOptions>(c);
  const auto buffers = clients::kernel_buffers(kSlowReceiveBuffer);
  const auto bytes = clients::stalling_response_bytes(buffers);
  options.path = large_path(c.target, bytes);
  options.receive_buffer = kSlowReceiveBuffer;
  options.read_size = std::max<std::size_t>(buffers.receive / 4, 1024);
  const auto reads = (bytes + options.read_size - 1) / options.read_size;
  options.interval = 2 * request_wait(c.target) / static_cast<Duration::rep>(reads);
  return options;
}

Scenario slow_reader() {
  return {.id = "slow-reader",
          .family = "not-cut",
          .must =
              "let a reader that keeps making progress, slowly, receive a response larger "
              "than the kernel's buffers whole",
          .unmet_need =
              [](const Target& t) {
                return first_unmet({need_path(t.paths.large, "large"), needs_request_wait(t)});
              },
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                auto expected = expect_whole_response(t, timing, p);
                expected.stall_bytes = stall_bytes(kSlowReceiveBuffer);
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                clients::spawn_slow_reader(io, slow_reader_options(c), out.fleet());
              }};
}

Scenario long_response() {
  return {.id = "long-response",
          .family = "not-cut",
          .must = "answer a request whose handler takes longer than the request-wait deadline",
          .unmet_need =
              [](const Target& t) {
                return first_unmet(
                    {need_path(t.paths.long_response, "long-response"), needs_request_wait(t)});
              },
          .expect = expect_whole_response,
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
                get_whole(io, c, *c.target.paths.long_response, out);
              }};
}

Scenario stream() {
  return {.id = "stream",
          .family = "not-cut",
          .must = "keep streaming a response past the request-wait deadline until it ends",
          .unmet_need =
              [](const Target& t) {
                return first_unmet({need_path(t.paths.stream, "stream"), needs_request_wait(t)});
              },
          .expect = expect_whole_response,
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
                get_whole(io, c, *c.target.paths.stream, out);
              }};
}

Scenario websocket() {
  return {
      .id = "websocket",
      .family = "not-cut",
      .must =
          "keep an upgraded WebSocket open past the request-wait deadline until the "
          "client closes it",
      .unmet_need =
          [](const Target& t) {
            return first_unmet({need_path(t.paths.websocket, "websocket"), needs_request_wait(t)});
          },
      .expect =
          [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
            const auto deadline = request_wait(t);
            auto expected = completion(1, deadline, timing.patience_for(deadline) * 2, timing, p);
            expected.completion->status = 101;
            expected.completion->client_ends = true;
            return expected;
          },
      .drive =
          [](clients::asio::io_context& io, const DriveContext& c,
             DriveOutput& out) {
            auto options = options_for<clients::WebsocketHoldOptions>(c);
            options.path = *c.target.paths.websocket;
            options.hold = c.timing.patience_for(request_wait(c.target));  // 2x the deadline
            clients::spawn_websocket_hold(io, options, out.fleet());
          }};
}

}  // namespace

std::vector<Scenario> not_cut_scenarios() {
  return {slow_reader(), long_response(), stream(), websocket()};
}

}  // namespace loiter::suites
