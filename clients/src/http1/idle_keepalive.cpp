#include "loiter/clients/http1/idle_keepalive.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> idle_keepalive_connection(Shared<IdleKeepaliveOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kIdleKeepalive);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = request_head({.path = options->path, .host = options->host});
  co_await exchange_requests(connection, head, 1, Duration{}, until);
  Connection::hold_until_closed(std::move(connection),
                                until);  // idle from the response's completion
}

void spawn_idle_keepalive(asio::io_context& io, const IdleKeepaliveOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &idle_keepalive_connection, out);
}

}  // namespace loiter::clients
