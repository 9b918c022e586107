// What every client kind's fleet is: where it connects, how many connections, on which
// timeline, from which sources, with whose leave, and over what. Each kind's options hold
// one (`fleet`) beside what is the kind's own. Patience is measured from each connection's
// own connect. Plain values: nothing here is a property of the process.
#pragma once

#include <cstddef>
#include <optional>

#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/fleet.hpp"
#include "loiter/clients/transport/share.hpp"
#include "loiter/clients/transport/tls.hpp"

namespace loiter::clients {

struct FleetSpec {
  tcp::endpoint target;
  std::size_t count = 100;
  Duration patience = std::chrono::seconds(20);
  Duration connect_timeout = std::chrono::seconds(5);
  Pacing pacing{};
  Duration hold_after_close{};    // keep the socket this long after the server's close
  std::size_t source_offset = 0;  // connection i connects from source_for(source_offset + i)
  // Sources from 127.<source_block>.0.2 on (targets.hpp): a shard's own addresses.
  unsigned source_block = 0;
  FleetShare share;  // the connections this process spawns: all by default
  // The one address off loopback the user allowed (loiter check --allow-remote); none:
  // loopback only.
  std::optional<asio::ip::address> allowed_remote;
  TlsClient tls;  // null: cleartext
};

// The source address of the fleet's connection `index` (targets.hpp's source_for).
asio::ip::address source_of(const FleetSpec& fleet, std::size_t index);

// Throws std::invalid_argument unless the target is on loopback or the one allowed remote,
// and std::runtime_error unless this process's share fits in RLIMIT_NOFILE.
void require_spawnable(const FleetSpec& fleet);

}  // namespace loiter::clients
