#include "loiter/clients/http1/rst_abort.hpp"

#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> rst_abort_connection(Shared<RstAbortOptions> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kRstAbort);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = partial_head({.path = options->path, .host = options->host}, options->stall);
  const auto give_up_at = connection.connected() + options->abort_after;
  co_await give_up_mid_head(std::move(connection), head, give_up_at, until, GiveUp::rst);
}

void spawn_rst_abort(asio::io_context& io, const RstAbortOptions& options,
                     std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &rst_abort_connection, out);
}

}  // namespace loiter::clients
