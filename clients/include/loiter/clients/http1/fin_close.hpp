// fin-close: connects, sends a partial head, keeps reading until close_after, then closes
// normally mid-request: shutdown(send) — a FIN — and close. Observes: that the client
// closed (ending client-close), or the server's own ending if the server ended it first.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"
#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

inline constexpr std::string_view kFinClose = "fin-close";

struct FinCloseOptions {
  FleetSpec fleet;
  StallPoint stall = StallPoint::mid_header_value;        // the partial head it sends
  Duration close_after = std::chrono::milliseconds(100);  // from connect (within patience)
  std::string path = "/health";
  std::string host = "localhost";
};

awaitable<void> fin_close_connection(Shared<FinCloseOptions> options, Slot slot);

// Spawns options.count fin-close connections on `io`; run `io` to collect them into `out`.
void spawn_fin_close(asio::io_context& io, const FinCloseOptions& options,
                     std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
