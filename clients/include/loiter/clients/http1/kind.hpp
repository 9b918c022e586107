// What every client kind shares. Each <Kind>Options struct starts with its fleet (FleetSpec:
// target, count, patience, pacing, sources, share, tls — null: cleartext; set: every kind but
// silent completes the handshake in connect), then what is the kind's own; the templates
// here read the fleet. Patience is measured from each connection's own connect.
#pragma once

#include <memory>
#include <vector>

#include "loiter/clients/transport/connection.hpp"
#include "loiter/clients/transport/fleet.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"
#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients {

template <typename Options>
using Shared = std::shared_ptr<const Options>;

template <typename Options>
ConnectPlan plan_for(const Options& options, const Slot& slot, int receive_buffer = 0) {
  const FleetSpec& fleet = options.fleet;
  return {.target = fleet.target,
          .source = source_of(fleet, slot.index),
          .start = slot.start,
          .timeout = fleet.connect_timeout,
          .receive_buffer = receive_buffer,
          .tls = fleet.tls.get()};
}

// Connects `connection` at its slot. A coroutine of its own, so the plan lives in this
// short-lived frame, not in the (long-lived) frame of the connection's behaviour.
// `handshake` false: over TLS, the connection does not start its handshake.
template <typename Options>
awaitable<bool> connect_at_slot(Connection& connection, const Options& options, const Slot& slot,
                                bool handshake = true) {
  auto plan = plan_for(options, slot);
  plan.handshake = handshake;
  const bool connected = co_await connection.connect(plan);
  co_return connected;
}

template <typename Options>
Connection connection_for(Executor executor, const Options& options, const Slot& slot,
                          std::string_view kind) {
  return Connection(executor, slot.record, kind, options.fleet.hold_after_close);
}

// Spawns options.fleet.count connections of one kind on `io` (this process's share of them);
// run `io` to fill `out`. Refuses what require_spawnable refuses.
template <typename Options>
void spawn_kind(asio::io_context& io, const Options& options,
                awaitable<void> (*connection)(Shared<Options>, Slot),
                std::vector<ConnectionRecord>& out) {
  const FleetSpec& fleet = options.fleet;
  require_spawnable(fleet);
  auto shared = std::make_shared<const Options>(options);
  spawn_fleet(
      io, fleet.count, fleet.pacing, fleet.share,
      [shared, connection](Slot slot) { return connection(shared, slot); }, out);
}

}  // namespace loiter::clients
