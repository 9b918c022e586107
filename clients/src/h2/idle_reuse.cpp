// h2-idle and h2-stream-reuse: one stream served whole, then nothing (the server's idle
// timeout, with a GOAWAY before its close); or a second stream reuse_after later, which a
// server must serve as long as that is within its idle timeout.
#include "loiter/clients/h2/stalls.hpp"
#include "steps.hpp"

namespace loiter::clients {

namespace {

// Opens the connection and has stream 1 (GET options.path) served: true once it is whole.
awaitable<bool> first_stream(Connection& connection, h2::Encoder& encoder, const H2Options& options,
                             ConnectionRecord& record, Clock::time_point until) {
  auto frames = h2::opening();
  frames.add(h2::request(encoder, options, 1, "GET", options.path, /*end_stream=*/true));
  const bool sent = co_await h2::send_frames(connection, record, frames, until, true);
  if (!sent) co_return false;
  const Wait wait = co_await connection.read_until(until, 1);
  co_return wait == Wait::done;
}

// Stream 1 served whole; the hold after it is idle from the response.
awaitable<void> serve_one_stream(Connection& connection, const H2Options& options, const Slot& slot,
                                 Clock::time_point until) {
  h2::Encoder encoder;
  co_await first_stream(connection, encoder, options, slot.record, until);
}

// Stream 1 served whole, then stream 3 reuse_after later, if that is within patience.
awaitable<void> serve_two_streams(Connection& connection, const H2Options& options,
                                  const Slot& slot, Clock::time_point until) {
  h2::Encoder encoder;  // one per connection: the server mirrors its dynamic table
  const bool served = co_await first_stream(connection, encoder, options, slot.record, until);
  if (!served) co_return;
  const auto at =
      connection.connected() + *slot.record.responses.front().complete + options.reuse_after;
  const Wait wait = co_await connection.read_until(std::min(at, until));
  if (wait != Wait::deadline || at >= until) co_return;
  h2::Frames second;
  second.add(h2::request(encoder, options, 3, "GET", options.path, /*end_stream=*/true));
  const bool sent = co_await h2::send_frames(connection, slot.record, second, until, true);
  if (sent) co_await connection.read_until(until, 2);
}

}  // namespace

void spawn_h2_idle(asio::io_context& io, const H2Options& options,
                   std::vector<ConnectionRecord>& out) {
  h2::spawn_h2_holding_kind(io, options, kH2Idle, &serve_one_stream, out);
}

void spawn_h2_stream_reuse(asio::io_context& io, const H2Options& options,
                           std::vector<ConnectionRecord>& out) {
  h2::spawn_h2_holding_kind(io, options, kH2StreamReuse, &serve_two_streams, out);
}

}  // namespace loiter::clients
