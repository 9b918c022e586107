#include "server_side.hpp"

#include <fmt/format.h>

#include "loiter/fixtures/os/harness_error.hpp"

namespace loiter::suites::survey {

namespace {

// The client's endpoint as its record spells it ("127.0.0.2:40312", "::1:40312").
std::string key_of(const fixtures::TcpEndpoint& endpoint) {
  return fmt::format("{}:{}", endpoint.address().to_string(), endpoint.port());
}

bool in_syn_recv(fixtures::TcpState state) {
  return state == fixtures::TcpState::syn_recv || state == fixtures::TcpState::new_syn_recv;
}

}  // namespace

bool ServerSide::look() {
  fixtures::TcpSnapshot snapshot;
  try {
    snapshot = probe_.snapshot();
  } catch (const fixtures::HarnessError&) {
    return false;
  }
  blind_ = false;
  const auto now = clients::Clock::now();
  std::map<std::string, fixtures::TcpState> seen;
  for (const auto& socket : snapshot.sockets) {
    if (socket.local.port() != probe_.port() || socket.state == fixtures::TcpState::listen) {
      continue;
    }
    const auto key = key_of(socket.remote);
    seen[key] = socket.state;
    if (in_syn_recv(socket.state)) syn_recv_.insert(key);
  }
  for (const auto& [key, state] : seen) {
    if (state == fixtures::TcpState::established) open_[key] = state;
  }
  for (auto it = open_.begin(); it != open_.end();) {
    const auto now_seen = seen.find(it->first);
    if (now_seen != seen.end() && now_seen->second == fixtures::TcpState::established) {
      ++it;
      continue;
    }
    // Gone at once: a reset (or a close whose last byte and FIN were taken between looks);
    // FIN_WAIT1/2, CLOSING, LAST_ACK, TIME_WAIT: the server closed it.
    closed_[it->first] = {
        .at = now,
        .ending = {.way = now_seen == seen.end() ? reports::SurveyEnding::Way::reset
                                                 : reports::SurveyEnding::Way::close}};
    it = open_.erase(it);
  }
  return true;
}

ServerCloses ServerSide::closes(const std::vector<clients::ConnectionRecord>& records) const {
  ServerCloses closes;
  for (const auto& record : records) {
    const auto it = closed_.find(record.source);
    if (it == closed_.end()) continue;
    const auto since_connect = it->second.at - record.connected();
    // Gone after the client closed its own end (its wait ran out): the client's doing.
    if (record.client_closed > clients::Duration{} && since_connect >= record.client_closed) {
      continue;
    }
    closes[record.source] = {.seconds = std::chrono::duration<double>(since_connect).count(),
                             .ending = it->second.ending};
  }
  return closes;
}

std::size_t ServerSide::held_in_syn_recv(
    const std::vector<clients::ConnectionRecord>& records) const {
  std::size_t held = 0;
  for (const auto& record : records) held += syn_recv_.contains(record.source) ? 1 : 0;
  return held;
}

}  // namespace loiter::suites::survey
