#include "loiter/clients/http1/idle_keepalive.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {
namespace {

// One whole exchange; the hold after it is idle from the response's completion.
awaitable<void> exchange_once(Connection& connection, const IdleKeepaliveOptions& options,
                              const Slot&, Clock::time_point until) {
  const auto head = request_head({.path = options.path, .host = options.host});
  co_await exchange_requests(connection, head, 1, Duration{}, until);
}

}  // namespace

void spawn_idle_keepalive(asio::io_context& io, const IdleKeepaliveOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kIdleKeepalive, &exchange_once, out);
}

}  // namespace loiter::clients
