// partial-body: connects, sends a whole POST head declaring Content-Length, then only the
// first body_sent bytes of the body, then nothing, keeping a read outstanding.
// Observes: the server's answer (408 where promised) and when and how it ended it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kPartialBody = "partial-body";

struct PartialBodyOptions {
  FleetSpec fleet;
  std::size_t content_length = 64;  // declared in the head
  std::size_t body_sent = 32;       // body bytes actually sent (fewer than declared)
  std::string path = "/echo";
  std::string host = "localhost";
};

// Spawns options.count partial-body connections on `io`; run `io` to collect them into `out`.
void spawn_partial_body(asio::io_context& io, const PartialBodyOptions& options,
                        std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
