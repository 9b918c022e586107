#include "loiter/clients/http1/websocket_hold.hpp"

#include <fmt/format.h>

#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

std::string websocket_upgrade(std::string_view path, std::string_view host) {
  return fmt::format(
      "GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: loiter\r\nUpgrade: websocket\r\n"
      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\n\r\n",
      path, host);
}

awaitable<void> websocket_hold_connection(Shared<WebsocketHoldOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kWebsocketHold);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto release = connection.connected() + options->hold;
  if (!co_await exchange_requests(connection, websocket_upgrade(options->path, options->host), 1,
                                  Duration{}, until)) {
    co_return;  // no 101: the record says how it ended
  }
  // Held open, a read outstanding: a server that cuts the WebSocket is seen at once.
  if (co_await connection.read_until(release) == Wait::deadline) connection.close_first();
}

void spawn_websocket_hold(asio::io_context& io, const WebsocketHoldOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &websocket_hold_connection, out);
}

}  // namespace loiter::clients
