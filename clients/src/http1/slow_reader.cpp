#include "loiter/clients/http1/slow_reader.hpp"

#include <algorithm>

#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

awaitable<void> slow_reader_connection(Shared<SlowReaderOptions> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kSlowReader);
  if (!co_await connection.connect(plan_for(*options, slot, options->receive_buffer))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = request_head({.path = options->path, .host = options->host});
  if (co_await connection.send(head, until, /*completes_request=*/true)) {
    const auto schedule = follow_up_schedule(connection, options->interval, slot);
    // One read per interval: bounded by `until`, and over once the response is whole.
    for (std::size_t k = 0; connection.is_open(); ++k) {
      const auto at = schedule.at(k);
      if (at >= until || complete_responses(connection.record()) > 0) break;
      co_await connection.pause_until(at);
      const auto next = std::min(schedule.at(k + 1), until);
      if (!co_await connection.read_at_most(options->read_size, next)) break;
    }
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_slow_reader(asio::io_context& io, const SlowReaderOptions& options,
                       std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &slow_reader_connection, out);
}

}  // namespace loiter::clients
