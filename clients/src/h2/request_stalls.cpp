// h2-headers-no-end and h2-data-trickle: a stream whose request never completes. A header
// block without END_HEADERS and no CONTINUATION (the server must bound the header block's
// time, as client_header_timeout does for HTTP/1.1); a body whose DATA comes a byte per
// interval and never ends (slowloris's body variant: the server's body timeout).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "loiter/clients/http1/steps.hpp"
#include "steps.hpp"

namespace loiter::clients {

namespace {

// Reads until the server's SETTINGS came (and was acknowledged by read_until()), or `until`.
awaitable<bool> await_server_settings(Connection& connection, const ConnectionRecord& record,
                                      Clock::time_point until) {
  constexpr auto kStep = std::chrono::milliseconds(10);
  // Each turn reads for kStep at most: bounded by `until`.
  while (!record.h2->server_settings && Clock::now() < until) {
    const Wait wait = co_await connection.read_until(std::min(Clock::now() + kStep, until));
    if (wait == Wait::ended) co_return false;
  }
  co_return record.h2->server_settings.has_value();
}

// The header block is left open only once the server's SETTINGS is acknowledged: after it
// the client may send nothing but a CONTINUATION (RFC 9113 6.10), so it answers no more.
awaitable<void> open_a_header_block(Connection& connection, const H2Options& options,
                                    const Slot& slot, Clock::time_point until) {
  const bool opened = co_await h2::send_frames(connection, slot.record, h2::opening(), until);
  if (!opened) co_return;
  if (!co_await await_server_settings(connection, slot.record, until)) co_return;
  connection.speak_h2(/*answer_control=*/false);
  h2::Encoder encoder;
  h2::Frames open_block;
  open_block.add(h2::request(encoder, options, 1, "GET", options.path, /*end_stream=*/true, {},
                             /*end_headers=*/false));
  co_await h2::send_frames(connection, slot.record, open_block, until);
}

// A POST declaring body_bytes, its DATA a byte per interval, never the last one.
awaitable<void> trickle_a_body(Connection& connection, const H2Options& options, const Slot& slot,
                               Clock::time_point until) {
  h2::Encoder encoder;
  const std::size_t length = options.body_bytes;
  auto frames = h2::opening();
  frames.add(h2::request(encoder, options, 1, "POST", options.echo_path, /*end_stream=*/false,
                         {{"content-length", fmt::format("{}", length)}}));
  const bool sent = co_await h2::send_frames(connection, slot.record, frames, until);
  if (!sent || length <= 1) co_return;
  const auto schedule = follow_up_schedule(connection, options.interval, slot);
  auto& h2 = *slot.record.h2;
  // One DATA frame of one byte each step; never the last byte, never END_STREAM.
  co_await trickle_pieces(
      connection, schedule, length - 1,
      [&h2](std::size_t) {
        ++h2.frames_sent;
        return h2::data(1, "x", /*end_stream=*/false);
      },
      until, /*completes_request=*/false);
}

}  // namespace

void spawn_h2_headers_no_end(asio::io_context& io, const H2Options& options,
                             std::vector<ConnectionRecord>& out) {
  h2::spawn_h2_holding_kind(io, options, kH2HeadersNoEnd, &open_a_header_block, out);
}

void spawn_h2_data_trickle(asio::io_context& io, const H2Options& options,
                           std::vector<ConnectionRecord>& out) {
  if (options.echo_path.empty()) {
    throw std::invalid_argument("h2-data-trickle needs a path that reads a body (echo_path)");
  }
  h2::spawn_h2_holding_kind(io, options, kH2DataTrickle, &trickle_a_body, out);
}

}  // namespace loiter::clients
