// What every client kind shares. Each <Kind>Options struct starts with the same fields —
// target, count, patience, connect_timeout, pacing, then hold_after_close, source_offset,
// tls (null: cleartext; set: every kind but silent completes the handshake in connect) —
// written out in each so callers can use designated initializers; the templates here read
// them. Patience is measured from each connection's own connect.
#pragma once

#include <memory>
#include <vector>

#include "loiter/clients/transport/connection.hpp"
#include "loiter/clients/transport/fleet.hpp"
#include "loiter/clients/transport/share.hpp"
#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients {

template <typename Options>
using Shared = std::shared_ptr<const Options>;

template <typename Options>
ConnectPlan plan_for(const Options& options, const Slot& slot, int receive_buffer = 0) {
  return {.target = options.target,
          .source = source_for(options.target, options.source_offset + slot.index),
          .start = slot.start,
          .timeout = options.connect_timeout,
          .receive_buffer = receive_buffer,
          .tls = options.tls.get()};
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
  return Connection(executor, slot.record, kind, options.hold_after_close);
}

// Spawns options.count connections of one kind on `io` (this process's share of them, see
// share.hpp); run `io` to fill `out`. Refuses a non-loopback target, and a share that cannot
// fit in RLIMIT_NOFILE.
template <typename Options>
void spawn_kind(asio::io_context& io, const Options& options,
                awaitable<void> (*connection)(Shared<Options>, Slot),
                std::vector<ConnectionRecord>& out) {
  require_loopback(options.target);
  require_fd_room(fleet_share().of(options.count));
  auto shared = std::make_shared<const Options>(options);
  spawn_fleet(
      io, options.count, options.pacing,
      [shared, connection](Slot slot) { return connection(shared, slot); }, out);
}

}  // namespace loiter::clients
