#include "explanations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "loiter/fixtures/probe/tcp_states.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

void OpenWatch::poll() {
  if (snapshot_ || probe_ == nullptr || !probe_->tcp() || clients::Clock::now() < due_) return;
  try {
    taken_ = clients::Clock::now();
    snapshot_ = probe_->tcp()->snapshot();
  } catch (const std::exception&) {
    due_ = clients::Clock::time_point::max();  // the kernel cannot be asked: explain nothing
  }
}

std::vector<reports::Finding> OpenWatch::findings(
    const std::vector<clients::ConnectionRecord>& records, const fixtures::TcpEndpoint& server,
    Duration patience) const {
  if (!snapshot_) return {};
  std::map<std::string, std::size_t> counts;
  std::size_t open = 0;
  Duration before{};
  for (const auto& record : records) {
    if (record.ending != clients::Ending::open || record.connected() > taken_) continue;
    if (record.h3) continue;  // QUIC over UDP: the kernel keeps no state of it to read
    const auto client = fixtures::TcpEndpoint::parse(record.source);
    if (!client) continue;
    ++open;
    before = std::max(before, record.connect_start + patience - taken_);
    ++counts[fixtures::explain_tuple(*snapshot_, *client, server).explanation];
  }
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::ranges::sort(sorted, [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<reports::Finding> found;
  for (const auto& [explanation, n] : sorted) {
    found.push_back({.code = reports::codes::kKernelView,
                     .klass = reports::FindingClass::deadline,
                     .count = n,
                     .of = open,
                     .measured = in_seconds(before),
                     .unit = "s",
                     .explanation = explanation});
  }
  return found;
}

clients::Clock::time_point snapshot_due(clients::Clock::time_point start, Duration patience) {
  const Duration early = std::min<Duration>(patience / 4, std::chrono::milliseconds(500));
  return start + patience - early;
}

reports::Finding late_fds_finding(const FdObservation& fds, Duration allowed, Duration looked) {
  if (fds.recovered && fds.recovered_after) {
    return {.code = reports::codes::kFdsBackLate,
            .klass = reports::FindingClass::resources,
            .measured = in_seconds(*fds.recovered_after),
            .bound = in_seconds(allowed),
            .unit = "s"};
  }
  return {.code = reports::codes::kFdsStillHeld,
          .klass = reports::FindingClass::resources,
          .count = fds.after > fds.baseline ? fds.after - fds.baseline : 0,
          .measured = in_seconds(looked),
          .unit = "s"};
}

}  // namespace loiter::suites
