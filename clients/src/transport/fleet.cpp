#include "loiter/clients/transport/fleet.hpp"

#include <boost/asio/post.hpp>
#include <cmath>

#include "loiter/clients/transport/share.hpp"

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
awaitable<void> pace(std::size_t count, Pacing pacing, ConnectionBody body,
                     std::vector<ConnectionRecord>& out) {
  const FleetShare share = fleet_share();
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

void spawn_fleet(asio::io_context& io, std::size_t count, Pacing pacing, const ConnectionBody& body,
                 std::vector<ConnectionRecord>& out) {
  out.clear();
  out.resize(count);
  asio::co_spawn(io, pace(count, pacing, body, out), rethrow_error);
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
