// The client kinds of `loiter drive`: the clients' kind registry, each kind spawned with its
// own defaults and the settings from the command line.
#include "drive_kinds.hpp"

namespace loiter::cli {

const clients::ClientKind* find_kind(const std::string& name) {
  return clients::find_client_kind(name);
}

void spawn_kind(const clients::ClientKind& kind, clients::asio::io_context& io,
                const DriveSettings& settings, std::vector<clients::ConnectionRecord>& out) {
  const clients::FleetSpec fleet{
      .target = settings.target,
      .count = settings.count,
      .patience = settings.patience,
      .pacing = {.start = clients::Clock::now(), .per_second = settings.rate},
      .tls = settings.tls};
  kind.spawn(io, fleet,
             {.interval = settings.interval, .pause = settings.pause, .path = settings.path}, out);
}

bool is_paced(const std::string& name) {
  const auto* kind = find_kind(name);
  return kind != nullptr && kind->paced;
}

bool takes_pause(const std::string& name) {
  const auto* kind = find_kind(name);
  return kind != nullptr && kind->pauses;
}

bool takes_path(const std::string& name) {
  const auto* kind = find_kind(name);
  return kind != nullptr && kind->has_path;
}

std::string kinds_that(bool (*takes)(const std::string&)) {
  std::string names;
  for (const auto& kind : clients::client_kinds()) {
    const std::string name(kind.name);
    if (takes(name)) names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& kind : clients::client_kinds()) names.emplace_back(kind.name);
  return names;
}

}  // namespace loiter::cli
