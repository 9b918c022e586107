// The live line of `loiter drive`: what the connections are doing right now, from their
// records as they fill; and the connects that failed, for its summary.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"

namespace loiter::cli {

// "3 s  opened 100  waiting 80  ended close 20  server FDs 107"
std::string drive_status(const std::vector<clients::ConnectionRecord>& records, double elapsed_s,
                         std::optional<std::size_t> server_fds);

// Connections that never connected: "connection refused: 20 of 20 connects failed", the
// most frequent error first, lower-cased; `all` when not one connected. nullopt: none failed.
struct ConnectFailures {
  std::string text;
  bool all = false;
};
std::optional<ConnectFailures> connect_failures(
    const std::vector<clients::ConnectionRecord>& records);

}  // namespace loiter::cli
