// header-lines: the line-by-line slowloris. Connects, sends the request line and its Host
// line, then one whole header line ("X-Loiter-<n>: <n>") per interval, each in one write, on
// its own timeline from its connect, never the empty line that ends the head; until the
// server ends it, max_lines are sent, or patience runs out. Observes: every send (one per
// line), and when and how the server ended it: a header deadline re-armed by each complete
// line (the original slowloris weakness) must not extend the deadline from connect.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kHeaderLines = "header-lines";

struct HeaderLinesOptions {
  FleetSpec fleet;
  Duration interval = std::chrono::seconds(1);  // between header lines
  std::size_t max_lines = 1000;                 // header lines sent at most after the first
  std::string path = "/health";
  std::string host = "localhost";
};

// Spawns options.count header-lines connections on `io`; run `io` to collect them into `out`.
void spawn_header_lines(asio::io_context& io, const HeaderLinesOptions& options,
                        std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
