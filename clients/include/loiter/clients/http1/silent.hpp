// silent: connects, sends nothing, and keeps a read outstanding until the server closes or
// resets the connection, or its patience (measured from its own connect) runs out.
// Observes: when and how the server ended it, and any response (a 408) it sent first.
// Over TLS it sends no ClientHello either: a TLS connection whose handshake never started.
#pragma once

#include <cstddef>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kSilent = "silent";

struct SilentOptions {
  FleetSpec fleet;
};

awaitable<void> silent_connection(Shared<SilentOptions> options, Slot slot);

// Spawns options.count silent connections on `io`; run `io` to collect them into `out`.
void spawn_silent(asio::io_context& io, const SilentOptions& options,
                  std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
