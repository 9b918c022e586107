// The live line of `loiter drive`, counted from the records as they fill.
#include "drive_status.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace loiter::cli {

std::string drive_status(const std::vector<clients::ConnectionRecord>& records, double elapsed_s,
                         std::optional<std::size_t> server_fds) {
  std::size_t opened = 0, waiting = 0;
  std::map<std::string, std::size_t> ended;
  for (const auto& r : records) {
    if (r.connect_start == clients::Clock::time_point{}) continue;  // not started yet
    const bool failed = r.ending == clients::Ending::connect_failed;
    // Over QUIC there is no connect before the handshake: a connection is open once its
    // handshake is done, and over once its ending was seen (the client closes no socket then).
    const bool quic = r.h3.has_value();
    const bool connected =
        (r.connect_took > clients::Duration::zero() || (quic && r.h3->handshake_done)) && !failed;
    opened += connected;
    const bool done = failed || r.client_closed > clients::Duration::zero() ||
                      (quic && r.ended_at > clients::Duration::zero());
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

std::optional<ConnectFailures> connect_failures(
    const std::vector<clients::ConnectionRecord>& records) {
  std::map<std::string, std::size_t> errors;
  std::size_t failed = 0;
  for (const auto& r : records) {
    if (r.ending != clients::Ending::connect_failed) continue;
    ++failed;
    std::string error = r.error.empty() ? "no reason given" : r.error;
    error.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(error.front())));
    ++errors[error];
  }
  if (failed == 0) return std::nullopt;
  const auto most = std::ranges::max_element(
      errors, [](const auto& a, const auto& b) { return a.second < b.second; });
  return ConnectFailures{
      .text = fmt::format("{}: {} of {} connects failed", most->first, failed, records.size()),
      .all = failed == records.size()};
}

}  // namespace loiter::cli
