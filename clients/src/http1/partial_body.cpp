#include "loiter/clients/http1/partial_body.hpp"

#include <algorithm>

#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

awaitable<void> partial_body_connection(Shared<PartialBodyOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kPartialBody);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  {
    const std::size_t length = options->content_length;
    const RequestShape shape{
        .method = "POST", .path = options->path, .host = options->host, .content_length = length};
    // Never the whole body: then it would be a complete request, not a stalled one.
    const std::size_t sent = std::min(options->body_sent, length > 0 ? length - 1 : 0);
    const auto bytes = request_head(shape) + request_body(length, sent);
    co_await connection.send(bytes, until);
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_partial_body(asio::io_context& io, const PartialBodyOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &partial_body_connection, out);
}

}  // namespace loiter::clients
