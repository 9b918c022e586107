// The client kinds `loiter drive` can run, by the names their records carry: the clients'
// kind registry (clients/kinds.hpp), with the command line's settings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/kinds.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/tls.hpp"

namespace loiter::cli {

// What every kind takes from the command line.
struct DriveSettings {
  clients::tcp::endpoint target;
  std::size_t count = 100;
  double rate = 200.0;  // connections opened per second
  clients::Duration patience = std::chrono::seconds(30);
  // Paced kinds (is_paced()): between their sends (or reads); nullopt: the kind's default.
  std::optional<clients::Duration> interval;
  // Kinds that pause (takes_pause()): how long; nullopt: the kind's default.
  std::optional<clients::Duration> pause;
  // Kinds that request a path (takes_path()); "{bytes}" in it becomes the size of a response
  // the kernel's buffers cannot hold (clients::stalling_response_bytes). Empty: the kind's own.
  std::string path;
  clients::TlsClient tls;  // null: cleartext
};

// The kind called `kind`, or nullptr if there is no such kind.
const clients::ClientKind* find_kind(const std::string& kind);
// Spawns `settings.count` connections of `kind` on `io`; run `io` to fill `out`.
void spawn_kind(const clients::ClientKind& kind, clients::asio::io_context& io,
                const DriveSettings& settings, std::vector<clients::ConnectionRecord>& out);
std::vector<std::string> kind_names();
// Whether `kind` paces its sends (or reads) at an interval: header-trickle, header-lines, ...
bool is_paced(const std::string& kind);
// Whether `kind` pauses once for a while: keepalive-partial, reader-pause.
bool takes_pause(const std::string& kind);
// Whether `kind` requests a path (every kind that sends a whole request line).
bool takes_path(const std::string& kind);
// The kinds for which `takes` holds, comma-separated: for a refusal's words.
std::string kinds_that(bool (*takes)(const std::string&));

}  // namespace loiter::cli
