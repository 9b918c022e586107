// The live line of `loiter drive`: what the connections are doing right now, from their
// records as they fill.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"

namespace loiter::cli {

// "3 s  opened 100  waiting 80  ended close 20  server FDs 107"
std::string drive_status(const std::vector<clients::ConnectionRecord>& records, double elapsed_s,
                         std::optional<std::size_t> server_fds);

}  // namespace loiter::cli
