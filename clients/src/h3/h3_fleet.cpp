// The fleet that starts h3 connections (spawn_h3_kind, spawn_h3_connections): each slot's
// connection built and started at the slot's time.
#include <stdexcept>

#include "loiter/clients/transport/fleet_spec.hpp"
#include "quic_connection.hpp"

namespace loiter::clients::h3 {

// The fleet body: a coroutine only to wait for the slot's start; the connection then runs
// on its own handlers.
namespace h3_fleet_detail {

awaitable<void> start_at_slot(ConnectionFactory factory, Slot slot) {
  Timer timer(co_await asio::this_coro::executor);
  timer.expires_at(slot.start);
  auto [ec] = co_await timer.async_wait(as_values);  // a local: see docs/gcc12-coroutines.md
  (void)ec;
  auto connection = factory(timer.get_executor(), slot.index, slot.record);
  connection->start();
}

}  // namespace h3_fleet_detail

using h3_fleet_detail::start_at_slot;

void spawn_h3_connections(asio::io_context& io, const FleetSpec& fleet, ConnectionFactory factory,
                          std::vector<ConnectionRecord>& out) {
  if (fleet.count == 0) throw std::invalid_argument("an h3 fleet needs count >= 1");
  require_spawnable(fleet);
  spawn_fleet(
      io, fleet.count, fleet.pacing, fleet.share,
      [factory = std::move(factory)](Slot slot) { return start_at_slot(factory, slot); }, out);
}

void spawn_h3_kind(asio::io_context& io, const H3Options& options, Make make,
                   std::vector<ConnectionRecord>& out) {
  auto shared = std::make_shared<const H3Options>(options);
  spawn_h3_connections(
      io, options.fleet,
      [shared, make](Executor executor, std::size_t index, ConnectionRecord& record) {
        return make(executor, shared, index, record);
      },
      out);
}

}  // namespace loiter::clients::h3
