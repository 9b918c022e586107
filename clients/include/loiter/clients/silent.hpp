// silent: connects, sends nothing, and keeps a read outstanding until the server closes or
// resets the connection, or its patience (measured from its own connect) runs out.
// Observes: when and how the server ended it, and any response (a 408) it sent first.
#pragma once

#include <cstddef>
#include <vector>

#include "loiter/clients/fleet.hpp"

namespace loiter::clients {

inline constexpr std::string_view kSilent = "silent";

struct SilentOptions {
  tcp::endpoint target;
  std::size_t count = 100;
  Duration patience = std::chrono::seconds(20);
  Duration connect_timeout = std::chrono::seconds(5);
  Pacing pacing{};
};

awaitable<ConnectionRecord> silent_connection(tcp::endpoint target, asio::ip::address source,
                                              Duration patience, Duration connect_timeout);

// Spawns options.count silent connections on `io`; run `io` to collect them into `out`.
void spawn_silent(asio::io_context& io, const SilentOptions& options,
                  std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
