#include "loiter/clients/silent.hpp"

namespace loiter::clients {

awaitable<void> silent_connection(Shared<SilentOptions> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kSilent);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  co_await connection.observe_until_closed(connection.connected() + options->patience);
}

void spawn_silent(asio::io_context& io, const SilentOptions& options,
                  std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &silent_connection, out);
}

}  // namespace loiter::clients
