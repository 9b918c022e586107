// keepalive-partial: one whole exchange, the pause, then half of the next head and silence.
#include "loiter/clients/http1/keepalive_partial.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> keepalive_partial_connection(Shared<KeepalivePartialOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kKeepalivePartial);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const RequestShape shape{.path = options->path, .host = options->host};
  const bool answered =
      co_await exchange_requests(connection, request_head(shape), 1, Duration{}, until);
  if (answered) {
    const auto at = connection.connected() +
                    *connection.record().last_complete_response()->complete + options->pause;
    const auto half = partial_head(shape, StallPoint::mid_header_value);
    const bool open = co_await send_then_wait(connection, "", at, until);
    if (open) co_await connection.send(half, until);
  }
  // A failed send needs nothing else: the server has ended it, and this records how.
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_keepalive_partial(asio::io_context& io, const KeepalivePartialOptions& options,
                             std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &keepalive_partial_connection, out);
}

}  // namespace loiter::clients
