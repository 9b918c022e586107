// keepalive-partial: connects, sends one request, reads the whole response, waits `pause`
// (reading all the while), then sends half of the next request's head (the request line and
// part of a header field, never the empty line that ends it) and goes silent, keeping a read
// outstanding until the server ends the connection or patience runs out.
// Observes: the first response (its completion), when the second head's bytes were sent
// (sends.back()), and when and how the server ended the stalled connection.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kKeepalivePartial = "keepalive-partial";

struct KeepalivePartialOptions {
  FleetSpec fleet;
  Duration pause = std::chrono::milliseconds(500);  // from the whole response to the half head
  std::string path = "/health";
  std::string host = "localhost";
};

// Spawns options.count keepalive-partial connections on `io`; run `io` to collect them into
// `out`.
void spawn_keepalive_partial(asio::io_context& io, const KeepalivePartialOptions& options,
                             std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
