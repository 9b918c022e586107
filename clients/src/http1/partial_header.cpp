#include "loiter/clients/http1/partial_header.hpp"

namespace loiter::clients {
namespace {

// The head up to its stall point, in one send (nothing for a stall before the first byte).
awaitable<void> send_partial_head(Connection& connection, const PartialHeaderOptions& options,
                                  const Slot&, Clock::time_point until) {
  const auto head = partial_head({.path = options.path, .host = options.host}, options.stall);
  if (!head.empty()) co_await connection.send(head, until);
}

}  // namespace

void spawn_partial_header(asio::io_context& io, const PartialHeaderOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kPartialHeader, &send_partial_head, out);
}

}  // namespace loiter::clients
