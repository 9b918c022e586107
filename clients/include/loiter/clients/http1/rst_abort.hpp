// rst-abort: connects, sends a partial head, keeps reading until abort_after, then aborts:
// SO_LINGER {on, 0} and close, so the kernel sends an RST. Observes: that the client aborted
// (ending client-abort), or the server's own ending if the server ended it first.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"
#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

inline constexpr std::string_view kRstAbort = "rst-abort";

struct RstAbortOptions {
  FleetSpec fleet;
  StallPoint stall = StallPoint::mid_header_value;        // the partial head it sends
  Duration abort_after = std::chrono::milliseconds(100);  // from connect (within patience)
  std::string path = "/health";
  std::string host = "localhost";
};

awaitable<void> rst_abort_connection(Shared<RstAbortOptions> options, Slot slot);

// Spawns options.count rst-abort connections on `io`; run `io` to collect them into `out`.
void spawn_rst_abort(asio::io_context& io, const RstAbortOptions& options,
                     std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
