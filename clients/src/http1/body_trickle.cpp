#include "loiter/clients/http1/body_trickle.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {
namespace {

// A whole POST head declaring the length, then the body a byte per interval.
awaitable<void> send_trickled_body(Connection& connection, const BodyTrickleOptions& options,
                                   const Slot& slot, Clock::time_point until) {
  const std::size_t length = options.content_length;
  const bool sent = co_await connection.send(
      request_head(
          {.method = "POST", .path = options.path, .host = options.host, .content_length = length}),
      until, /*completes_request=*/length == 0);
  if (!sent) co_return;
  const auto schedule = follow_up_schedule(connection, options.interval, slot);
  co_await trickle(
      connection, schedule, length, [length](std::size_t k) { return body_byte(length, k); }, until,
      /*completes_request=*/true);
}

}  // namespace

void spawn_body_trickle(asio::io_context& io, const BodyTrickleOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kBodyTrickle, &send_trickled_body, out);
}

}  // namespace loiter::clients
