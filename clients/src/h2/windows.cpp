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

// h2-zero-window: the request with the window shut, never opened.
awaitable<void> ask_with_the_window_shut(Connection& connection, const H2Options& options,
                                         const Slot& slot, Clock::time_point until) {
  co_await ask_shut(connection, options, slot.record, until);
}

// h2-window-trickle: the same request, its window opened a little every interval.
awaitable<void> ask_then_trickle_the_window(Connection& connection, const H2Options& options,
                                            const Slot& slot, Clock::time_point until) {
  const bool sent = co_await ask_shut(connection, options, slot.record, until);
  const auto schedule = follow_up_schedule(connection, options.interval, slot);
  const auto increment = static_cast<std::uint32_t>(options.window_increment);
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
  h2::spawn_h2_holding_kind(io, options, kH2ZeroWindow, &ask_with_the_window_shut, out);
}

void spawn_h2_window_trickle(asio::io_context& io, const H2Options& options,
                             std::vector<ConnectionRecord>& out) {
  require_large_path(options, kH2WindowTrickle);
  h2::spawn_h2_holding_kind(io, options, kH2WindowTrickle, &ask_then_trickle_the_window, out);
}

}  // namespace loiter::clients
