// websocket-hold: connects, asks for a WebSocket upgrade (GET with Upgrade: websocket),
// reads the whole 101 answer, then holds the upgraded connection open with a read
// outstanding for `hold` (measured from its own connect), and closes it itself.
// Observes: the 101, and whether the server cut the open WebSocket before the client
// closed it (ending close/reset instead of client-close).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kWebsocketHold = "websocket-hold";

struct WebsocketHoldOptions {
  FleetSpec fleet;
  Duration hold = std::chrono::seconds(4);  // from connect; then the client closes
  std::string path = "/ws";
  std::string host = "localhost";
};

// The upgrade request: a fixed Sec-WebSocket-Key (RFC 6455's sample nonce) is enough to
// be answered; no frame is ever sent.
std::string websocket_upgrade(std::string_view path, std::string_view host);

awaitable<void> websocket_hold_connection(Shared<WebsocketHoldOptions> options, Slot slot);

void spawn_websocket_hold(asio::io_context& io, const WebsocketHoldOptions& options,
                          std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
