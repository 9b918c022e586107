// header-trickle: connects, sends the request line, then one header byte per interval (the
// head's own header lines, then "X-Loiter-Trickle: 1" lines, never the end of the head),
// on its own timeline from its connect, until the server ends it, max_bytes are sent, or
// patience runs out. Observes: every send, and when and how the server ended it: progress
// must not reset a header deadline measured from connect.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kHeaderTrickle = "header-trickle";

struct HeaderTrickleOptions {
  FleetSpec fleet;
  Duration interval = std::chrono::seconds(1);  // between header bytes
  std::size_t max_bytes = 4096;                 // header bytes sent at most
  std::string path = "/health";
  std::string host = "localhost";
};

// Spawns options.count header-trickle connections on `io`; run `io` to collect them into `out`.
void spawn_header_trickle(asio::io_context& io, const HeaderTrickleOptions& options,
                          std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
