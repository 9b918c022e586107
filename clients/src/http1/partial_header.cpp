#include "loiter/clients/http1/partial_header.hpp"

namespace loiter::clients {

awaitable<void> partial_header_connection(Shared<PartialHeaderOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kPartialHeader);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  {  // the head's buffer is freed before the long wait
    const auto head = partial_head({.path = options->path, .host = options->host}, options->stall);
    if (!head.empty()) co_await connection.send(head, until);
  }
  // A failed send needs nothing else: the server has ended it, and this records how.
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_partial_header(asio::io_context& io, const PartialHeaderOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &partial_header_connection, out);
}

}  // namespace loiter::clients
