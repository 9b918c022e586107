#include "explanations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <map>

#include "loiter/fixtures/probe/tcp_states.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

namespace {

// "127.0.0.2:40312" -> the endpoint; nullopt if it does not parse.
std::optional<fixtures::TcpEndpoint> endpoint_of(const std::string& source) {
  const auto colon = source.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  boost::system::error_code error;
  auto host = source.substr(0, colon);
  if (host.size() > 1 && host.front() == '[') host = host.substr(1, host.size() - 2);
  const auto address = boost::asio::ip::make_address(host, error);
  if (error) return std::nullopt;
  try {
    return fixtures::TcpEndpoint(address, static_cast<unsigned short>(std::stoul(source.substr(colon + 1))));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

void OpenWatch::poll() {
  if (snapshot_ || !probe_->tcp() || clients::Clock::now() < due_) return;
  try {
    taken_ = clients::Clock::now();
    snapshot_ = probe_->tcp()->snapshot();
  } catch (const std::exception&) {
    due_ = clients::Clock::time_point::max();  // the kernel cannot be asked: explain nothing
  }
}

std::vector<std::string> OpenWatch::findings(const std::vector<clients::ConnectionRecord>& records,
                                             const fixtures::TcpEndpoint& server,
                                             Duration patience) const {
  if (!snapshot_) return {};
  std::map<std::string, std::size_t> counts;
  std::size_t open = 0;
  Duration before{};
  for (const auto& record : records) {
    if (record.ending != clients::Ending::open || record.connected() > taken_) continue;
    const auto client = endpoint_of(record.source);
    if (!client) continue;
    ++open;
    before = std::max(before, record.connect_start + patience - taken_);
    ++counts[fixtures::explain_tuple(*snapshot_, *client, server).explanation];
  }
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::ranges::sort(sorted, [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> lines;
  for (const auto& [explanation, n] : sorted) {
    lines.push_back(fmt::format("kernel {:.1f} s before the clients gave up: {}/{} connections {}",
                                in_seconds(before), n, open, explanation));
  }
  return lines;
}

clients::Clock::time_point snapshot_due(clients::Clock::time_point start, Duration patience) {
  const Duration early = std::min<Duration>(patience / 4, std::chrono::milliseconds(500));
  return start + patience - early;
}

std::string late_fds_finding(const FdObservation& fds, Duration allowed, Duration looked) {
  if (fds.recovered && fds.recovered_after) {
    return fmt::format("FDs came back {:.1f} s after the clients ended: {:.1f} s later than the "
                       "{:.1f} s allowed",
                       in_seconds(*fds.recovered_after), in_seconds(*fds.recovered_after - allowed),
                       in_seconds(allowed));
  }
  const auto above = fds.after > fds.baseline ? fds.after - fds.baseline : 0;
  return fmt::format("FDs still not back {:.1f} s after the clients ended ({} above baseline)",
                     in_seconds(looked), above);
}

}  // namespace loiter::suites
