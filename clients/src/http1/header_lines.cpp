#include "loiter/clients/http1/header_lines.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {

awaitable<void> header_lines_connection(Shared<HeaderLinesOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kHeaderLines);
  if (!co_await connection.connect(plan_for(*options, slot))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  {
    const auto start = request_start({.path = options->path, .host = options->host});
    if (co_await connection.send(start, until)) {
      const Schedule schedule{.connected = connection.connected(),
                              .interval = options->interval,
                              .phase = spread_phase(slot.index)};
      co_await trickle_pieces(
          connection, schedule, options->max_lines,
          [](std::size_t k) { return numbered_header_line(k + 1); }, until,
          /*completes_request=*/false);
    }
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_header_lines(asio::io_context& io, const HeaderLinesOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &header_lines_connection, out);
}

}  // namespace loiter::clients
