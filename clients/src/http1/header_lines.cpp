#include "loiter/clients/http1/header_lines.hpp"

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"

namespace loiter::clients {
namespace {

// The request line, then one numbered header line per interval (never the empty line).
awaitable<void> send_header_lines(Connection& connection, const HeaderLinesOptions& options,
                                  const Slot& slot, Clock::time_point until) {
  const auto start = request_start({.path = options.path, .host = options.host});
  if (!co_await connection.send(start, until)) co_return;
  const auto schedule = follow_up_schedule(connection, options.interval, slot);
  co_await trickle_pieces(
      connection, schedule, options.max_lines,
      [](std::size_t k) { return numbered_header_line(k + 1); }, until,
      /*completes_request=*/false);
}

}  // namespace

void spawn_header_lines(asio::io_context& io, const HeaderLinesOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, options, kHeaderLines, &send_header_lines, out);
}

}  // namespace loiter::clients
