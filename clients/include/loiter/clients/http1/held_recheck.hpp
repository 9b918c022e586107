// held-recheck: connects, sends a request and reads the whole response (a handshake alone
// is not a working connection), then holds the connection — reading all the while — until
// the fleet-wide `recheck_at`, sends a second request on it and reads that response too,
// holds it again until `release_at`, and closes it itself (FIN).
// Observes: both responses, and any ending the server chose before the client's close.
#pragma once

#include <string>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kHeldRecheck = "held-recheck";

struct HeldRecheckOptions {
  FleetSpec fleet{.count = 1000, .patience = std::chrono::seconds(30)};
  Clock::time_point recheck_at{};  // the re-check request, for every connection at once
  Clock::time_point release_at{};  // the client closes then
  std::string path = "/health";
  std::string host = "localhost";
};

awaitable<void> held_recheck_connection(Shared<HeldRecheckOptions> options, Slot slot);

// Spawns options.count held-recheck connections on `io`; run `io` to collect them into `out`.
void spawn_held_recheck(asio::io_context& io, const HeldRecheckOptions& options,
                        std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
