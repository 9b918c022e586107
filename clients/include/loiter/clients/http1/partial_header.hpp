// partial-header: connects, sends a request head up to a stall point (nothing, the request
// line, mid header name, mid header value, or all but the final CRLF) in one send, then
// nothing more, keeping a read outstanding.
// Observes: whether the server answers (408) and when and how it ends the connection.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"
#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

inline constexpr std::string_view kPartialHeader = "partial-header";

struct PartialHeaderOptions {
  FleetSpec fleet;
  StallPoint stall = StallPoint::mid_header_value;  // where the head stops
  std::string path = "/health";
  std::string host = "localhost";
};

// Spawns options.count partial-header connections on `io`; run `io` to collect them into `out`.
void spawn_partial_header(asio::io_context& io, const PartialHeaderOptions& options,
                          std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
