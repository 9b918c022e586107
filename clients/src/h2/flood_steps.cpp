// The floods' shared steps (see flood_steps.hpp).
#include "flood_steps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "loiter/clients/h2/frames.hpp"
#include "steps.hpp"  // kLargeWindow, kDefaultWindow

namespace loiter::clients::h2 {

namespace {

// After a GOAWAY, how long a flood waits for the server's close before closing itself.
constexpr Duration kAfterGoaway = std::chrono::seconds(1);
constexpr Duration kReadTurn = std::chrono::milliseconds(20);  // finish()'s reads, a turn

}  // namespace

void spawn_flood(asio::io_context& io, const FloodOptions& options,
                 awaitable<void> (*connection)(Shared<FloodOptions>, Slot),
                 std::vector<ConnectionRecord>& out) {
  if (options.batch == 0) throw std::invalid_argument("flood: batch must be at least one frame");
  if (options.interval <= Duration::zero()) {
    throw std::invalid_argument("flood: the control client's interval must be positive");
  }
  if (options.fleet.patience < options.duration) {
    throw std::invalid_argument(fmt::format(
        "flood: patience ({} ms) must be at least the duration ({} ms)",
        std::chrono::duration_cast<std::chrono::milliseconds>(options.fleet.patience).count(),
        std::chrono::duration_cast<std::chrono::milliseconds>(options.duration).count()));
  }
  spawn_kind(io, options, connection, out);
}

awaitable<bool> open_flood(Connection& connection, const FloodOptions& options, const Slot& slot) {
  const bool connected = co_await connect_at_slot(connection, options, slot);
  if (!connected) co_return false;
  connection.speak_h2();
  if (!alpn_chose_h2(connection, slot.record)) co_return false;
  std::string opening(kPreface);
  opening += settings({{setting::enable_push, 0}, {setting::initial_window_size, kLargeWindow}});
  opening += window_update(0, kLargeWindow - kDefaultWindow);
  // The opening is not the flood: frames_sent counts the flood's own frames (and the few
  // SETTINGS/PING acknowledgements the connection owes), the figure its bound is about.
  co_return co_await connection.send(opening,
                                     connection.connected() + options.fleet.connect_timeout);
}

Flood::Flood(Connection& connection, ConnectionRecord& record, const FloodOptions& options,
             std::size_t own_bound)
    : connection_(connection),
      record_(record),
      options_(options),
      bound_(options.frames == 0 ? own_bound : options.frames),
      stop_(connection.connected() + options.duration) {}

std::size_t Flood::next_batch() const { return std::min(options_.batch, bound_ - sent_); }

bool Flood::more() const {
  return sent_ < bound_ && Clock::now() < stop_ && connection_.is_open() && !record_.h2->goaway;
}

awaitable<bool> Flood::send(std::string_view bytes, std::size_t frames) {
  if (auto owed = connection_.take_h2_owed(); !owed.empty()) {
    const bool replied = co_await connection_.send(owed, stop_);
    if (!replied) co_return false;
  }
  const bool sent = co_await connection_.send(bytes, stop_);
  if (sent) {
    sent_ += frames;
    record_.h2->frames_sent += frames;
  }
  co_return sent;
}

awaitable<void> Flood::read_now() { co_await connection_.read_until(Clock::now() + kBatchGap); }

awaitable<void> Flood::finish() {
  const auto until = connection_.connected() + options_.fleet.patience;
  std::optional<Clock::time_point> after_goaway;
  // Reads in short turns until the server ends it or patience runs out; once its GOAWAY is
  // read, a second at most for its close. Bounded by `until`.
  while (connection_.is_open()) {
    if (record_.h2->goaway && !after_goaway) after_goaway = Clock::now() + kAfterGoaway;
    const auto limit = after_goaway ? std::min(until, *after_goaway) : until;
    if (Clock::now() >= limit) break;
    co_await connection_.read_until(std::min(limit, Clock::now() + kReadTurn));
  }
  if (connection_.is_open()) connection_.close_first();
}

}  // namespace loiter::clients::h2
