#include "loiter/clients/http1/fin_close.hpp"

#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> fin_close_connection(Shared<FinCloseOptions> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kFinClose);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = partial_head({.path = options->path, .host = options->host}, options->stall);
  const auto give_up_at = connection.connected() + options->close_after;
  co_await give_up_mid_head(std::move(connection), head, give_up_at, until, GiveUp::fin);
}

void spawn_fin_close(asio::io_context& io, const FinCloseOptions& options,
                     std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &fin_close_connection, out);
}

}  // namespace loiter::clients
