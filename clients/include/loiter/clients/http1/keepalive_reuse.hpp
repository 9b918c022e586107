// keepalive-reuse: connects, sends a request, reads the whole response, waits reuse_after
// (reading all the while), sends the next request on the same connection, and so on for
// `requests` requests; then keeps reading until the server ends it or patience runs out.
// Observes: every response (status, fields, completion time) and the ending.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kKeepaliveReuse = "keepalive-reuse";

struct KeepaliveReuseOptions {
  FleetSpec fleet;
  Duration reuse_after = std::chrono::seconds(1);  // from one whole response to the next request
  std::size_t requests = 2;                        // requests on the one connection
  std::string path = "/health";
  std::string host = "localhost";
};

// Spawns options.count keepalive-reuse connections on `io`; run `io` to collect them into `out`.
void spawn_keepalive_reuse(asio::io_context& io, const KeepaliveReuseOptions& options,
                           std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
