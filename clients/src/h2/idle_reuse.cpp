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

awaitable<void> idle_connection(Shared<H2Options> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kH2Idle);
  if (!co_await h2::connect_h2(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  h2::Encoder encoder;
  co_await first_stream(connection, encoder, *options, slot.record, until);
  Connection::hold_until_closed(std::move(connection), until);  // idle from the response
}

awaitable<void> stream_reuse_connection(Shared<H2Options> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2StreamReuse);
  if (!co_await h2::connect_h2(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  h2::Encoder encoder;  // one per connection: the server mirrors its dynamic table
  const bool served = co_await first_stream(connection, encoder, *options, slot.record, until);
  if (served) {
    const auto at = connection.connected() + *slot.record.responses.front().complete +
                    options->reuse_after;
    const Wait wait = co_await connection.read_until(std::min(at, until));
    if (wait == Wait::deadline && at < until) {
      h2::Frames second;
      second.add(h2::request(encoder, *options, 3, "GET", options->path, /*end_stream=*/true));
      const bool sent = co_await h2::send_frames(connection, slot.record, second, until, true);
      if (sent) co_await connection.read_until(until, 2);
    }
  }
  Connection::hold_until_closed(std::move(connection), until);
}

}  // namespace

void spawn_h2_idle(asio::io_context& io, const H2Options& options,
                   std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &idle_connection, out);
}

void spawn_h2_stream_reuse(asio::io_context& io, const H2Options& options,
                           std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &stream_reuse_connection, out);
}

}  // namespace loiter::clients
