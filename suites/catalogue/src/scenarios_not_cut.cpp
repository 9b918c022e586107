// The must-not-cut-off family: legitimate exchanges that outlast the request-wait deadlines
// (a slow reader, a slow handler, a stream). The server must let them complete. On an [h2]
// target the first three are h2 streams beside the connection's other streams (the
// h2-long-response, h2-stream and h2-slow-reader kinds), every one of which must be
// answered: a server that keeps its deadlines per stream must not cut the long one at them.
#include "h2_plan.hpp"
#include "loiter/clients/h2/stalls.hpp"
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

// Over HTTP/2 the short streams beside the long one ask the health path.
Need needs_h2_beside(const Target& target) {
  if (!target.h2) return std::nullopt;
  return need_path(target.paths.health, "health (the short streams beside the long one)");
}

// An h2 kind's options: a GET of the health path on a new stream every half request-wait
// deadline while the long stream runs, so several are answered inside each deadline.
clients::H2Options h2_beside_options(const DriveContext& c) {
  auto options = options_for<clients::H2Options>(c);
  options.path = *c.target.paths.health;
  options.beside_every = request_wait(c.target) / 2;
  return options;
}

// GET `path`, read the whole response, then wait (the idle-keepalive client); over HTTP/2
// `h2_spawn`'s kind, the GET on stream 1 beside short ones.
void get_whole(clients::asio::io_context& io, const DriveContext& c, const std::string& path,
               DriveOutput& out,
               void (*h2_spawn)(clients::asio::io_context&, const clients::H2Options&,
                                std::vector<clients::ConnectionRecord>&)) {
  if (!c.target.h2) {
    spawn_named(clients::kIdleKeepalive, io, c, {.path = path}, out);
    return;
  }
  auto options = h2_beside_options(c);
  options.long_path = path;
  h2_spawn(io, options, out.fleet());
}

// slow-reader over HTTP/2: h2-window-trickle's plan (a window opened a quarter of the send
// deadline apart, for half as long again as the longest deadline), beside short streams.
void drive_h2_slow_reader(clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  const auto plan = h2_plan::window_plan(c.target);
  auto options = h2_beside_options(c);
  options.large_path = large_path(c.target, plan.bytes);
  options.interval = plan.interval;
  options.window_increment = plan.increment;
  clients::spawn_h2_slow_reader(io, options, out.fleet());
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
              "than the kernel's buffers whole (over HTTP/2: a stream whose window opens "
              "slowly, beside other streams answered meanwhile)",
          .unmet_need =
              [](const Target& t) {
                if (t.h2) {
                  return first_unmet({needs_request_wait(t), h2_plan::needs_window_trickle(t),
                                      needs_h2_beside(t)});
                }
                return first_unmet({need_path(t.paths.large, "large"), needs_request_wait(t)});
              },
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                if (t.h2) return h2_plan::expect_window_trickle(t, timing, p);
                auto expected = expect_whole_response(t, timing, p);
                expected.stall_bytes = stall_bytes(kSlowReceiveBuffer);
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                if (c.target.h2) {
                  drive_h2_slow_reader(io, c, out);
                  return;
                }
                clients::spawn_slow_reader(io, slow_reader_options(c), out.fleet());
              }};
}

Scenario long_response() {
  return {.id = "long-response",
          .family = "not-cut",
          .must =
              "answer a request whose handler takes longer than the request-wait deadline "
              "(over HTTP/2: a stream, beside other streams answered meanwhile)",
          .unmet_need =
              [](const Target& t) {
                return first_unmet({need_path(t.paths.long_response, "long-response"),
                                    needs_request_wait(t), needs_h2_beside(t)});
              },
          .expect = expect_whole_response,
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                get_whole(io, c, *c.target.paths.long_response, out,
                          clients::spawn_h2_long_response);
              }};
}

Scenario stream() {
  return {.id = "stream",
          .family = "not-cut",
          .must =
              "keep streaming a response past the request-wait deadline until it ends (over "
              "HTTP/2: a stream, beside other streams answered meanwhile)",
          .unmet_need =
              [](const Target& t) {
                return first_unmet({need_path(t.paths.stream, "stream"), needs_request_wait(t),
                                    needs_h2_beside(t)});
              },
          .expect = expect_whole_response,
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                get_whole(io, c, *c.target.paths.stream, out, clients::spawn_h2_stream);
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
          [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
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
