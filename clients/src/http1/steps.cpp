#include "loiter/clients/http1/steps.hpp"

#include <algorithm>

namespace loiter::clients {

awaitable<void> trickle(Connection& connection, Schedule schedule, std::size_t count,
                        std::function<char(std::size_t)> byte_at, Clock::time_point until,
                        bool completes_request) {
  co_await trickle_pieces(
      connection, schedule, count, [&byte_at](std::size_t k) { return std::string(1, byte_at(k)); },
      until, completes_request);
}

awaitable<void> trickle_pieces(Connection& connection, Schedule schedule, std::size_t count,
                               std::function<std::string(std::size_t)> piece_at,
                               Clock::time_point until, bool completes_request) {
  for (std::size_t k = 0; k < count; ++k) {  // bounded by count and by `until`
    const auto at = schedule.at(k);
    if (at >= until) co_return;
    if (co_await connection.read_until(at) == Wait::ended) co_return;
    const std::string piece = piece_at(k);
    const bool last = k + 1 == count;
    if (!co_await connection.send(piece, until, completes_request && last)) co_return;
  }
}

awaitable<bool> exchange_requests(Connection& connection, std::string_view head,
                                  std::size_t requests, Duration gap, Clock::time_point until) {
  for (std::size_t n = 1; n <= requests; ++n) {  // bounded by `requests`
    if (n > 1) {
      const Response* previous = connection.record().last_complete_response();
      const auto at = connection.connected() + *previous->complete + gap;
      if (co_await connection.read_until(std::min(at, until)) == Wait::ended) co_return false;
      if (at >= until) co_return false;
    }
    if (!co_await connection.send(head, until, /*completes_request=*/true)) co_return false;
    if (co_await connection.read_until(until, n) != Wait::done) co_return false;
  }
  co_return true;
}

awaitable<bool> send_then_wait(Connection& connection, std::string_view bytes, Clock::time_point at,
                               Clock::time_point until) {
  // Awaited values stay in locals: inlined, this coroutine would have none, and g++ 12
  // crashes on a co_await condition then (GCC PR 106188; docs/gcc12-coroutines.md).
  if (!bytes.empty()) {
    const bool sent = co_await connection.send(bytes, until);
    if (!sent) co_return false;
  }
  const Wait wait = co_await connection.read_until(std::min(at, until));
  co_return wait == Wait::deadline;
}

awaitable<void> give_up_mid_head(Connection connection, std::string_view head, Clock::time_point at,
                                 Clock::time_point until, GiveUp how) {
  // Awaited once into a local: it is tested twice below.
  const bool still_open = co_await send_then_wait(connection, head, at, until);
  if (still_open && how == GiveUp::rst) connection.abort();
  if (still_open && how == GiveUp::fin) connection.close_first();
  Connection::hold_until_closed(std::move(connection), until);  // records a server ending
}

}  // namespace loiter::clients
