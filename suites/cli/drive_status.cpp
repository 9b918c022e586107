// The live line of `loiter drive`, counted from the records as they fill.
#include "drive_status.hpp"

#include <fmt/format.h>

#include <map>

namespace loiter::cli {

std::string drive_status(const std::vector<clients::ConnectionRecord>& records, double elapsed_s,
                         std::optional<std::size_t> server_fds) {
  std::size_t opened = 0, waiting = 0;
  std::map<std::string, std::size_t> ended;
  for (const auto& r : records) {
    if (r.connect_start == clients::Clock::time_point{}) continue;  // not started yet
    const bool failed = r.ending == clients::Ending::connect_failed;
    const bool connected = r.connect_took > clients::Duration::zero() && !failed;
    opened += connected;
    const bool done = failed || r.client_closed > clients::Duration::zero();
    if (done) {
      ++ended[clients::ending_label(r)];
    } else if (connected) {
      ++waiting;
    }
  }
  std::string line = fmt::format("{:.0f} s  opened {}  waiting {}", elapsed_s, opened, waiting);
  if (!ended.empty()) {
    line += "  ended";
    for (const auto& [label, n] : ended) line += fmt::format(" {} {}", label, n);
  }
  if (server_fds) line += fmt::format("  server FDs {}", *server_fds);
  return line;
}

}  // namespace loiter::cli
