#include "loiter/clients/transport/fleet.hpp"

#include <fmt/format.h>

#include <boost/asio/post.hpp>
#include <cmath>
#include <stdexcept>

#include "loiter/clients/transport/fleet_spec.hpp"
#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients {

namespace {

Duration scaled(Duration interval, double factor) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double, Duration::period>(
      static_cast<double>(interval.count()) * factor));
}

// Spawns each connection shortly before its place on the timeline (the connection waits
// for its exact start itself), not all up front: a connection that has not started yet
// owns no frame, timer or operation, so the fleet's memory is what its started
// connections hold. Only this process's share of the fleet is spawned; the others' slots
// are skipped without a wait. Wakes at most once per kLead; bounded by `count`.
awaitable<void> pace(std::size_t count, Pacing pacing, FleetShare share, ConnectionBody body,
                     std::vector<ConnectionRecord>& out) {
  constexpr Duration kLead = std::chrono::milliseconds(1);
  const auto executor = co_await asio::this_coro::executor;
  Timer timer(executor);
  const Duration interval =
      std::chrono::duration_cast<Duration>(std::chrono::duration<double>(1.0 / pacing.per_second));
  for (std::size_t i = share.part; i < count; i += share.parts) {
    const auto at = pacing.start + scaled(interval, static_cast<double>(i));
    if (at - kLead > Clock::now()) {
      timer.expires_at(at - kLead);
      co_await timer.async_wait(as_values);
    } else if (i > share.part) {
      // Behind the timeline (asked to open faster than this thread can): let the
      // connections already spawned reach their connect and hold before spawning more, so
      // the frames of a backlog do not pile up (their holes would stay in the heap).
      co_await asio::post(executor, use_awaitable);
    }
    asio::co_spawn(executor, body(Slot{.index = i, .start = at, .record = out[i]}), rethrow_error);
  }
}

}  // namespace

void spawn_fleet(asio::io_context& io, std::size_t count, Pacing pacing, FleetShare share,
                 const ConnectionBody& body, std::vector<ConnectionRecord>& out) {
  require_valid(share);
  out.clear();
  out.resize(count);
  asio::co_spawn(io, pace(count, pacing, share, body, out), rethrow_error);
}

asio::ip::address source_of(const FleetSpec& fleet, std::size_t index) {
  return source_for(fleet.target, fleet.source_offset + index, fleet.source_block);
}

void require_spawnable(const FleetSpec& fleet) {
  require_loopback(fleet.target, fleet.allowed_remote);
  require_valid(fleet.share);
  if (fleet.source_block > kMaxSourceBlock) {
    throw std::invalid_argument(
        fmt::format("source block {} > {}", fleet.source_block, kMaxSourceBlock));
  }
  require_fd_room(fleet.share.of(fleet.count));
}

Clock::time_point Schedule::at(std::size_t step) const {
  return connected + scaled(interval, static_cast<double>(step) + phase);
}

double spread_phase(std::size_t index) {
  constexpr double kGoldenFraction = 0.6180339887498949;
  double whole = 0.0;
  return 1.0 - std::modf(static_cast<double>(index) * kGoldenFraction, &whole);
}

}  // namespace loiter::clients
