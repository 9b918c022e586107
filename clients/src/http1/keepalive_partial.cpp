// keepalive-partial: one whole exchange, the pause, then half of the next head and silence.
#include "loiter/clients/http1/keepalive_partial.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {
namespace {

awaitable<void> exchange_then_half_head(Connection& connection,
                                        const KeepalivePartialOptions& options, const Slot&,
                                        Clock::time_point until) {
  const RequestShape shape{.path = options.path, .host = options.host};
  const bool answered =
      co_await exchange_requests(connection, request_head(shape), 1, Duration{}, until);
  if (!answered) co_return;
  const auto at = connection.connected() + *connection.record().last_complete_response()->complete +
                  options.pause;
  const auto half = partial_head(shape, StallPoint::mid_header_value);
  const bool open = co_await send_then_wait(connection, "", at, until);
  if (open) co_await connection.send(half, until);
}

}  // namespace

void spawn_keepalive_partial(asio::io_context& io, const KeepalivePartialOptions& options,
                             std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kKeepalivePartial, &exchange_then_half_head, out);
}

}  // namespace loiter::clients
