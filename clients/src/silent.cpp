#include "loiter/clients/silent.hpp"

#include "loiter/clients/connection.hpp"
#include "loiter/clients/targets.hpp"

namespace loiter::clients {

awaitable<ConnectionRecord> silent_connection(tcp::endpoint target, asio::ip::address source,
                                              Duration patience, Duration connect_timeout) {
  Connection connection(co_await asio::this_coro::executor, kSilent);
  if (co_await connection.connect(target, source, connect_timeout)) {
    co_await connection.observe_until_closed(patience);
  }
  co_return connection.take_record();
}

void spawn_silent(asio::io_context& io, const SilentOptions& options,
                  std::vector<ConnectionRecord>& out) {
  require_loopback(options.target);
  spawn_fleet(
      io, options.count, options.pacing,
      [options](std::size_t index) {
        return silent_connection(options.target, source_for(options.target, index),
                                 options.patience, options.connect_timeout);
      },
      out);
}

}  // namespace loiter::clients
