#include "loiter/clients/http1/partial_body.hpp"

#include <algorithm>

#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {
namespace {

// A whole POST head and the first body_sent bytes of its body, in one send.
awaitable<void> send_partial_body(Connection& connection, const PartialBodyOptions& options,
                                  const Slot&, Clock::time_point until) {
  const std::size_t length = options.content_length;
  const RequestShape shape{
      .method = "POST", .path = options.path, .host = options.host, .content_length = length};
  // Never the whole body: then it would be a complete request, not a stalled one.
  const std::size_t sent = std::min(options.body_sent, length > 0 ? length - 1 : 0);
  const auto bytes = request_head(shape) + request_body(length, sent);
  co_await connection.send(bytes, until);
}

}  // namespace

void spawn_partial_body(asio::io_context& io, const PartialBodyOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kPartialBody, &send_partial_body, out);
}

}  // namespace loiter::clients
