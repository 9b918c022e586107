#include "loiter/clients/http1/header_trickle.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> header_trickle_connection(Shared<HeaderTrickleOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kHeaderTrickle);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  {
    const RequestShape shape{.path = options->path, .host = options->host};
    const auto line = partial_head(shape, StallPoint::request_line);
    const auto lines = header_lines(shape);
    if (co_await connection.send(line, until)) {
      const Schedule schedule{.connected = connection.connected(),
                              .interval = options->interval,
                              .phase = spread_phase(slot.index)};
      co_await trickle(
          connection, schedule, options->max_bytes,
          [&lines](std::size_t k) { return header_trickle_byte(lines, k); }, until,
          /*completes_request=*/false);
    }
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_header_trickle(asio::io_context& io, const HeaderTrickleOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &header_trickle_connection, out);
}

}  // namespace loiter::clients
