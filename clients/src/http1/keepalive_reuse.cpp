#include "loiter/clients/http1/keepalive_reuse.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {
namespace {

// `requests` whole exchanges on the one connection, reuse_after apart.
awaitable<void> exchange_reusing(Connection& connection, const KeepaliveReuseOptions& options,
                                 const Slot&, Clock::time_point until) {
  const auto head = request_head({.path = options.path, .host = options.host});
  co_await exchange_requests(connection, head, options.requests, options.reuse_after, until);
}

}  // namespace

void spawn_keepalive_reuse(asio::io_context& io, const KeepaliveReuseOptions& options,
                           std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kKeepaliveReuse, &exchange_reusing, out);
}

}  // namespace loiter::clients
