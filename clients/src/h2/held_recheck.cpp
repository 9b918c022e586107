// h2-held-recheck (held_recheck.hpp): between its steps the connection is held outside
// coroutine frames (Connection::hold_until), as HTTP/1.1's held-recheck is, so a thousand held
// connections cost their sockets and records, not a thousand frames.
#include "loiter/clients/h2/held_recheck.hpp"

#include "steps.hpp"

namespace loiter::clients {

namespace {

// Sends `frames` and opens `stream` (GET options.path) after them, then waits until
// `responses` streams are whole. Awaited values stay in locals (GCC PR 106188), and the
// frames come as an argument every caller gives: g++ 12 frees a coroutine's defaulted
// parameter wrongly (docs/gcc12-coroutines.md).
awaitable<bool> ask_stream(Connection& connection, h2::Encoder& encoder,
                           const H2HeldRecheckOptions& options, ConnectionRecord& record,
                           std::uint32_t stream, std::size_t responses, Clock::time_point until,
                           h2::Frames frames) {
  frames.add(h2::request(encoder, options, stream, "GET", options.path, /*end_stream=*/true));
  const bool sent = co_await h2::send_frames(connection, record, frames, until, true);
  if (!sent) co_return false;
  const Wait wait = co_await connection.read_until(until, responses);
  co_return wait == Wait::done;
}

// The encoder outlives the first coroutine: the server mirrors its dynamic table, so the
// re-check's header block is encoded by the same one.
// `record` is the slot's: the fleet's output outlives every connection of it.
awaitable<void> recheck_stream(Shared<H2HeldRecheckOptions> options,
                               std::shared_ptr<h2::Encoder> encoder, ConnectionRecord* record,
                               Connection connection, Clock::time_point until) {
  h2::Frames none;
  const bool answered =
      co_await ask_stream(connection, *encoder, *options, *record, 3, 2, until, std::move(none));
  hold_then(answered, std::move(connection), options->release_at, until,
            [](Connection held) { held.close_first(); });
}

awaitable<void> held_connection(Shared<H2HeldRecheckOptions> options, Slot slot) {
  const auto executor = co_await asio::this_coro::executor;
  auto connection = connection_for(executor, *options, slot, kH2HeldRecheck);
  if (!co_await h2::connect_h2(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  auto encoder = std::make_shared<h2::Encoder>();
  auto opening = h2::opening();
  const bool answered = co_await ask_stream(connection, *encoder, *options, slot.record, 1, 1,
                                            until, std::move(opening));
  hold_then(answered, std::move(connection), options->recheck_at, until,
            [options, encoder, record = &slot.record, until, executor](Connection held) {
              asio::co_spawn(executor,
                             recheck_stream(options, encoder, record, std::move(held), until),
                             rethrow_error);
            });
}

}  // namespace

void spawn_h2_held_recheck(asio::io_context& io, const H2HeldRecheckOptions& options,
                           std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &held_connection, out);
}

}  // namespace loiter::clients
