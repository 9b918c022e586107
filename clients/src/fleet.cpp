#include "loiter/clients/fleet.hpp"

#include <exception>

namespace loiter::clients {

namespace {

awaitable<void> paced(Clock::time_point at, ConnectionBody body, std::size_t index,
                      ConnectionRecord& out) {
  asio::steady_timer timer(co_await asio::this_coro::executor, at);
  co_await timer.async_wait(as_values);
  out = co_await body(index);
}

}  // namespace

void spawn_fleet(asio::io_context& io, std::size_t count, Pacing pacing, ConnectionBody body,
                 std::vector<ConnectionRecord>& out) {
  out.resize(count);
  const auto interval = std::chrono::duration<double>(1.0 / pacing.per_second);
  for (std::size_t i = 0; i < count; ++i) {
    const auto at =
        pacing.start + std::chrono::duration_cast<Duration>(interval * static_cast<double>(i));
    asio::co_spawn(io, paced(at, body, i, out[i]), [](const std::exception_ptr& e) {
      if (e) std::rethrow_exception(e);  // a harness bug, not server behaviour
    });
  }
}

}  // namespace loiter::clients
