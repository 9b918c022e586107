#include "loiter/clients/http1/body_trickle.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> body_trickle_connection(Shared<BodyTrickleOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kBodyTrickle);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const std::size_t length = options->content_length;
  const bool sent = co_await connection.send(request_head({.method = "POST",
                                                           .path = options->path,
                                                           .host = options->host,
                                                           .content_length = length}),
                                             until, /*completes_request=*/length == 0);
  if (sent) {
    const Schedule schedule{.connected = connection.connected(),
                            .interval = options->interval,
                            .phase = spread_phase(slot.index)};
    co_await trickle(
        connection, schedule, length, [length](std::size_t k) { return body_byte(length, k); },
        until, /*completes_request=*/true);
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_body_trickle(asio::io_context& io, const BodyTrickleOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &body_trickle_connection, out);
}

}  // namespace loiter::clients
