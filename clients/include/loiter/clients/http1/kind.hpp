// What every client kind shares. Each <Kind>Options struct starts with its fleet (FleetSpec:
// target, count, patience, pacing, sources, share, tls — null: cleartext; set: every kind but
// silent completes the handshake in connect), then what is the kind's own; the templates
// here read the fleet. Patience is measured from each connection's own connect.
#pragma once

#include <memory>
#include <string_view>
#include <utility>
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

// The timeline of a connection's follow-up steps: every `interval` from its own connect, at
// its slot's spread phase (Schedule).
inline Schedule follow_up_schedule(const Connection& connection, Duration interval,
                                   const Slot& slot) {
  return {
      .connected = connection.connected(), .interval = interval, .phase = spread_phase(slot.index)};
}

// Spawns options.fleet.count connections of one kind on `io` (this process's share of them),
// each the coroutine connection(Shared<Options>, Slot); run `io` to fill `out`. Refuses what
// require_spawnable refuses.
template <typename Options, typename Behaviour>
void spawn_kind(asio::io_context& io, const Options& options, Behaviour connection,
                std::vector<ConnectionRecord>& out) {
  const FleetSpec& fleet = options.fleet;
  require_spawnable(fleet);
  auto shared = std::make_shared<const Options>(options);
  spawn_fleet(
      io, fleet.count, fleet.pacing, fleet.share,
      [shared, connection](Slot slot) { return connection(shared, slot); }, out);
}

// What a kind that holds does between its connect and its hold: its own steps on
// `connection`, `until` being the end of its patience (from the connect). A step that fails
// needs nothing more: the server has ended the connection, and the record says how.
template <typename Options>
using HoldingSteps = awaitable<void> (*)(Connection& connection, const Options& options,
                                         const Slot& slot, Clock::time_point until);

// A kind's connect, by default at its slot (connect_at_slot). The h2 kinds' also starts
// speaking h2 (h2::connect_h2); the raw TLS stalls' starts no handshake.
struct ConnectAtSlot {
  template <typename Options>
  awaitable<bool> operator()(Connection& connection, const Options& options,
                             const Slot& slot) const {
    return connect_at_slot(connection, options, slot);
  }
};

// One connection of a kind that holds: recorded as `kind`, connected by `connect`, then its
// `steps`, then held (outside any coroutine frame) until the server ends it or its patience
// runs out.
template <typename Options, typename Connect>
awaitable<void> steps_then_hold(Shared<Options> options, Slot slot, std::string_view kind,
                                HoldingSteps<Options> steps, Connect connect) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kind);
  if (!co_await connect(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  co_await steps(connection, *options, slot, until);
  Connection::hold_until_closed(std::move(connection), until);
}

// spawn_kind for a kind that holds: each connection is steps_then_hold(…, kind, steps,
// connect).
template <typename Options, typename Connect = ConnectAtSlot>
void spawn_holding_kind(asio::io_context& io, const Options& options, std::string_view kind,
                        HoldingSteps<Options> steps, std::vector<ConnectionRecord>& out,
                        Connect connect = {}) {
  spawn_kind(
      io, options,
      [kind, steps, connect](Shared<Options> shared, Slot slot) {
        return steps_then_hold(std::move(shared), slot, kind, steps, connect);
      },
      out);
}

}  // namespace loiter::clients
