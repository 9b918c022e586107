// idle-keepalive: connects, sends one complete request, reads the whole response (Beast
// finds its end: Content-Length, chunked or close), then sends nothing and keeps reading.
// Observes: the response and when it was complete (responses[0].complete), and when and how
// the server ended the idle connection: the idle deadline runs from that completion.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kIdleKeepalive = "idle-keepalive";

struct IdleKeepaliveOptions {
  FleetSpec fleet;
  std::string path = "/health";
  std::string host = "localhost";
};

// Spawns options.count idle-keepalive connections on `io`; run `io` to collect them into `out`.
void spawn_idle_keepalive(asio::io_context& io, const IdleKeepaliveOptions& options,
                          std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
