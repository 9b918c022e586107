// The client kinds of `loiter drive`, each spawned with its own defaults and the shared
// settings from the command line.
#include "drive_kinds.hpp"

#include <map>

#include "loiter/clients/http1/body_trickle.hpp"
#include "loiter/clients/http1/fin_close.hpp"
#include "loiter/clients/http1/header_lines.hpp"
#include "loiter/clients/http1/header_trickle.hpp"
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/keepalive_partial.hpp"
#include "loiter/clients/http1/keepalive_reuse.hpp"
#include "loiter/clients/http1/partial_body.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/reader_pause.hpp"
#include "loiter/clients/http1/rst_abort.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/http1/slow_reader.hpp"

namespace loiter::cli {

namespace {

// A kind's spawn function, and whether it takes an interval.
struct Kind {
  SpawnKind spawn;
  bool paced = false;
};

template <typename Options>
constexpr bool kPaced = requires(Options options) {
  options.interval;
};

// Each kind with its own defaults, and the settings every kind shares.
template <typename Options>
Kind kind(void (*spawn)(clients::asio::io_context&, const Options&,
                        std::vector<clients::ConnectionRecord>&)) {
  auto spawn_kind = [spawn](clients::asio::io_context& io, const DriveSettings& settings,
                            std::vector<clients::ConnectionRecord>& out) {
    Options options;
    options.target = settings.target;
    options.count = settings.count;
    options.patience = settings.patience;
    options.pacing = {.start = clients::Clock::now(), .per_second = settings.rate};
    if constexpr (kPaced<Options>) {
      if (settings.interval) options.interval = *settings.interval;
    }
    spawn(io, options, out);
  };
  return {.spawn = spawn_kind, .paced = kPaced<Options>};
}

const std::map<std::string, Kind>& kinds() {
  static const std::map<std::string, Kind> table{
      {std::string(clients::kSilent), kind(clients::spawn_silent)},
      {std::string(clients::kPartialHeader), kind(clients::spawn_partial_header)},
      {std::string(clients::kHeaderTrickle), kind(clients::spawn_header_trickle)},
      {std::string(clients::kPartialBody), kind(clients::spawn_partial_body)},
      {std::string(clients::kBodyTrickle), kind(clients::spawn_body_trickle)},
      {std::string(clients::kIdleKeepalive), kind(clients::spawn_idle_keepalive)},
      {std::string(clients::kKeepaliveReuse), kind(clients::spawn_keepalive_reuse)},
      {std::string(clients::kRstAbort), kind(clients::spawn_rst_abort)},
      {std::string(clients::kFinClose), kind(clients::spawn_fin_close)},
      {std::string(clients::kSlowReader), kind(clients::spawn_slow_reader)},
      {std::string(clients::kHeaderLines), kind(clients::spawn_header_lines)},
      {std::string(clients::kKeepalivePartial), kind(clients::spawn_keepalive_partial)},
      // Its own defaults: GET /large, read 64 KiB, read nothing for 4 s, read the rest.
      {std::string(clients::kReaderPause), kind(clients::spawn_reader_pause)},
  };
  return table;
}

}  // namespace

const SpawnKind* find_kind(const std::string& name) {
  const auto it = kinds().find(name);
  return it == kinds().end() ? nullptr : &it->second.spawn;
}

bool is_paced(const std::string& name) {
  const auto it = kinds().find(name);
  return it != kinds().end() && it->second.paced;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& [name, spawn] : kinds()) names.push_back(name);
  return names;
}

}  // namespace loiter::cli
