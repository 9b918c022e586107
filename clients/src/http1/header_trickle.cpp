#include "loiter/clients/http1/header_trickle.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {
namespace {

// The request line, then the header lines a byte per interval.
awaitable<void> send_trickled_head(Connection& connection, const HeaderTrickleOptions& options,
                                   const Slot& slot, Clock::time_point until) {
  const RequestShape shape{.path = options.path, .host = options.host};
  const auto line = partial_head(shape, StallPoint::request_line);
  const auto lines = header_lines(shape);
  if (!co_await connection.send(line, until)) co_return;
  const auto schedule = follow_up_schedule(connection, options.interval, slot);
  co_await trickle(
      connection, schedule, options.max_bytes,
      [&lines](std::size_t k) { return header_trickle_byte(lines, k); }, until,
      /*completes_request=*/false);
}

}  // namespace

void spawn_header_trickle(asio::io_context& io, const HeaderTrickleOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kHeaderTrickle, &send_trickled_head, out);
}

}  // namespace loiter::clients
