#include "loiter/clients/http1/held_recheck.hpp"

#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

namespace {

// Sends one request and waits until `responses` responses are whole. Awaited values stay in
// locals: with none, g++ 12 crashes on a co_await condition (GCC PR 106188;
// docs/gcc12-coroutines.md).
awaitable<bool> ask(Connection& connection, std::string_view head, std::size_t responses,
                    Clock::time_point until) {
  const bool sent = co_await connection.send(head, until, /*completes_request=*/true);
  if (!sent) co_return false;
  const Wait wait = co_await connection.read_until(until, responses);
  co_return wait == Wait::done;
}

// The re-check, on a connection still open at recheck_at; then the hold until release_at,
// where the client closes it itself.
awaitable<void> recheck(Shared<HeldRecheckOptions> options, Connection connection,
                        Clock::time_point until) {
  const auto head = request_head({.path = options->path, .host = options->host});
  const bool answered = co_await ask(connection, head, 2, until);
  hold_then(answered, std::move(connection), options->release_at, until,
            [](Connection held) { held.close_first(); });
}

}  // namespace

// Between its steps the connection is held outside coroutine frames (Connection::hold_until),
// so the long waits cost the connection and its record, not two frames.
awaitable<void> held_recheck_connection(Shared<HeldRecheckOptions> options, Slot slot) {
  const auto executor = co_await asio::this_coro::executor;
  auto connection = connection_for(executor, *options, slot, kHeldRecheck);
  const bool connected = co_await connect_at_slot(connection, *options, slot);
  if (!connected) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = request_head({.path = options->path, .host = options->host});
  const bool answered = co_await ask(connection, head, 1, until);
  hold_then(answered, std::move(connection), options->recheck_at, until,
            [options, until, executor](Connection held) {
              asio::co_spawn(executor, recheck(options, std::move(held), until), rethrow_error);
            });
}

void spawn_held_recheck(asio::io_context& io, const HeldRecheckOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &held_recheck_connection, out);
}

}  // namespace loiter::clients
