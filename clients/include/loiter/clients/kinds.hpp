// The client kinds by name: each spawned from a fleet (FleetSpec) and the few settings a
// caller may give any kind by name, and which of those settings it takes. `loiter drive` runs
// any of them; the catalogue's scenarios spawn them by name where a kind's own defaults and
// the fleet are all they need. Kinds whose behaviour is a schedule only a scenario sets
// (held-recheck, websocket-hold, the h2 and h3 floods and their control clients) are not
// here. The registry is a library of its own (loiter::clients_kinds) above the TCP kinds and
// the HTTP/3 ones.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"

namespace loiter::clients {

// What a caller may set on a kind by name; nullopt or empty: the kind's own default.
struct KindSettings {
  std::optional<Duration> interval;  // a paced kind: between its sends (or reads)
  std::optional<Duration> pause;     // a kind that pauses once: how long
  // A kind that requests a path; "{bytes}" in it becomes the size of a response its kernel
  // buffers cannot hold, for the kind's own receive buffer (stalling_response_bytes).
  std::string path;
};

using SpawnByName = void (*)(asio::io_context& io, const FleetSpec& fleet,
                             const KindSettings& settings, std::vector<ConnectionRecord>& out);

struct ClientKind {
  std::string_view name;
  SpawnByName spawn;
  bool paced = false;     // takes KindSettings::interval
  bool pauses = false;    // takes KindSettings::pause
  bool has_path = false;  // takes KindSettings::path
  bool quic = false;      // HTTP/3 over QUIC (UDP, its own TLS 1.3): the fleet's TLS unused
  bool needs_tls = false;  // completes a TLS handshake: only with the fleet's TLS
};

// Every kind, by name.
std::span<const ClientKind> client_kinds();
// The kind called `name`, or nullptr.
const ClientKind* find_client_kind(std::string_view name);

}  // namespace loiter::clients
