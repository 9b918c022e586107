// h2-zero-window and h2-window-trickle: the client keeps its receive window shut
// (INITIAL_WINDOW_SIZE 0, no connection WINDOW_UPDATE), so the server can send a large
// response's HEADERS but no DATA: the h2 form of a reader that never reads, which a server
// must give up on (its send timeout). The twin opens the window window_increment bytes at a
// time every interval, on the stream and the connection, until the response is whole: slow
// but progressing, which a server must not cut.
#include <stdexcept>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "steps.hpp"

namespace loiter::clients {

namespace {

// Opens with the window shut and asks for large_path on stream 1.
awaitable<bool> ask_shut(Connection& connection, const H2Options& options, ConnectionRecord& record,
                         Clock::time_point until) {
  h2::Encoder encoder;
  auto frames = h2::opening(/*window_shut=*/true);
  frames.add(h2::request(encoder, options, 1, "GET", options.large_path, /*end_stream=*/true));
  const bool sent = co_await h2::send_frames(connection, record, frames, until, true);
  co_return sent;
}

awaitable<void> zero_window_connection(Shared<H2Options> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2ZeroWindow);
  if (!co_await h2::connect_h2(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  co_await ask_shut(connection, *options, slot.record, until);
  Connection::hold_until_closed(std::move(connection), until);
}

awaitable<void> window_trickle_connection(Shared<H2Options> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2WindowTrickle);
  if (!co_await h2::connect_h2(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const bool sent = co_await ask_shut(connection, *options, slot.record, until);
  const auto schedule = follow_up_schedule(connection, options->interval, slot);
  const auto increment = static_cast<std::uint32_t>(options->window_increment);
  // Each step opens the window a little until the response is whole: bounded by `until`.
  for (std::size_t k = 0; sent; ++k) {
    const auto at = schedule.at(k);
    if (at >= until) break;
    const Wait wait = co_await connection.read_until(at, 1);
    if (wait != Wait::deadline) break;  // whole, or ended
    h2::Frames updates;
    updates.add(h2::window_update(1, increment)).add(h2::window_update(0, increment));
    const bool updated = co_await h2::send_frames(connection, slot.record, updates, until);
    if (!updated) break;
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void require_large_path(const H2Options& options, std::string_view kind) {
  if (options.large_path.empty()) {
    throw std::invalid_argument(std::string(kind) + " needs a large response's path (large_path)");
  }
}

}  // namespace

void spawn_h2_zero_window(asio::io_context& io, const H2Options& options,
                          std::vector<ConnectionRecord>& out) {
  require_large_path(options, kH2ZeroWindow);
  spawn_kind(io, options, &zero_window_connection, out);
}

void spawn_h2_window_trickle(asio::io_context& io, const H2Options& options,
                             std::vector<ConnectionRecord>& out) {
  require_large_path(options, kH2WindowTrickle);
  spawn_kind(io, options, &window_trickle_connection, out);
}

}  // namespace loiter::clients
