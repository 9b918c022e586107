#include "loiter/clients/held_recheck.hpp"

#include <algorithm>

#include "loiter/clients/requests.hpp"

namespace loiter::clients {

namespace {

// Sends one request and waits until `responses` responses are whole. Awaited values go
// into locals first: g++ 12 miscompiles some co_await-in-condition forms.
awaitable<bool> ask(Connection& connection, std::string_view head, std::size_t responses,
                    Clock::time_point until) {
  const bool sent = co_await connection.send(head, until, /*completes_request=*/true);
  if (!sent) co_return false;
  const Wait wait = co_await connection.read_until(until, responses);
  co_return wait == Wait::done;
}

// Holds the connection, reading, until `at`. False if the server ended it meanwhile.
awaitable<bool> hold(Connection& connection, Clock::time_point at, Clock::time_point until) {
  const Wait wait = co_await connection.read_until(std::min(at, until));
  co_return wait == Wait::deadline&& at <= until;
}

}  // namespace

awaitable<void> held_recheck_connection(Shared<HeldRecheckOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kHeldRecheck);
  const bool connected = co_await connect_at_slot(connection, *options, slot);
  if (!connected) co_return;
  const auto until = connection.connected() + options->patience;
  const auto head = request_head({.path = options->path, .host = options->host});
  bool going = co_await ask(connection, head, 1, until);
  if (going) going = co_await hold(connection, options->recheck_at, until);
  if (going) going = co_await ask(connection, head, 2, until);
  if (going) going = co_await hold(connection, options->release_at, until);
  if (going) connection.close_first();
  Connection::hold_until_closed(std::move(connection), until);  // records a server ending, if any came
}

void spawn_held_recheck(asio::io_context& io, const HeldRecheckOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &held_recheck_connection, out);
}

}  // namespace loiter::clients
