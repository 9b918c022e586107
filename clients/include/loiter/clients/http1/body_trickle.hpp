// body-trickle: connects, sends a whole POST head declaring Content-Length, then the body
// one byte per interval on its own timeline from its connect, until the body is complete,
// the server ends it, or patience runs out. Observes: every send, any response (a 408, or
// the answer once the body is whole), and when and how the server ended it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kBodyTrickle = "body-trickle";

struct BodyTrickleOptions {
  FleetSpec fleet;
  Duration interval = std::chrono::seconds(1);  // between body bytes
  std::size_t content_length = 4096;            // declared, and trickled at most
  std::string path = "/echo";
  std::string host = "localhost";
};

// Spawns options.count body-trickle connections on `io`; run `io` to collect them into `out`.
void spawn_body_trickle(asio::io_context& io, const BodyTrickleOptions& options,
                        std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
