#include "loiter/clients/fleet.hpp"

#include <cmath>
#include <exception>

namespace loiter::clients {

namespace {

Duration scaled(Duration interval, double factor) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double, Duration::period>(
      static_cast<double>(interval.count()) * factor));
}

}  // namespace

void spawn_fleet(asio::io_context& io, std::size_t count, Pacing pacing, const ConnectionBody& body,
                 std::vector<ConnectionRecord>& out) {
  out.clear();
  out.resize(count);
  const Duration interval =
      std::chrono::duration_cast<Duration>(std::chrono::duration<double>(1.0 / pacing.per_second));
  for (std::size_t i = 0; i < count; ++i) {
    const auto at = pacing.start + scaled(interval, static_cast<double>(i));
    asio::co_spawn(io, body(Slot{.index = i, .start = at, .record = out[i]}),
                   [](const std::exception_ptr& e) {
                     if (e) std::rethrow_exception(e);  // a harness bug, not server behaviour
                   });
  }
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
