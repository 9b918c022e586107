#include "loiter/clients/http1/keepalive_reuse.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> keepalive_reuse_connection(Shared<KeepaliveReuseOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kKeepaliveReuse);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = request_head({.path = options->path, .host = options->host});
  co_await exchange_requests(connection, head, options->requests, options->reuse_after, until);
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_keepalive_reuse(asio::io_context& io, const KeepaliveReuseOptions& options,
                           std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &keepalive_reuse_connection, out);
}

}  // namespace loiter::clients
