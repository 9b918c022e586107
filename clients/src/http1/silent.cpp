#include "loiter/clients/http1/silent.hpp"

namespace loiter::clients {

awaitable<void> silent_connection(Shared<SilentOptions> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kSilent);
  // Over TLS it sends nothing either, not even a ClientHello: no handshake.
  const bool connected = co_await connect_at_slot(connection, *options, slot, /*handshake=*/false);
  if (!connected) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  // The coroutine ends here; the connection is held outside it (a fraction of the memory).
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_silent(asio::io_context& io, const SilentOptions& options,
                  std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &silent_connection, out);
}

}  // namespace loiter::clients
