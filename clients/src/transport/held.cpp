// Connection::hold_until_closed(): the long wait at the end of a behaviour, kept out of
// coroutine frames. A coroutine frame holds everything live across its suspension points
// (and the spawn keeps two more frames above it), ~0.9 KiB per connection; the held state
// here is the connection itself, its patience and its continuation, parked in the
// io_context's HeldSet (held_set.hpp) until its socket is readable or its time comes. When
// the io_context is destroyed with it parked, the set closes its socket and frees it.
//
// The steps are read_until()'s, for any number of responses: wait until the socket is
// readable or `until`; read what arrived (even when the time came first, so an EOF or RST
// that arrived with it counts); the server's ending is recorded; readable without an ending
// waits again; the time come ends the connection as `open` (the client closes its end), or,
// with a continuation, hands it on. It is the only way a behaviour waits for the end.
#include "transport/held.hpp"

#include <memory>

#include "transport/held_set.hpp"

namespace loiter::clients {

HeldConnection::HeldConnection(Connection connection, Clock::time_point until,
                               Connection::Continuation then)
    : connection_(std::move(connection)), until_(until) {
  if (then) then_ = std::make_unique<Connection::Continuation>(std::move(then));
}

// Bounded: each turn either ends the connection or parks it, and the wait ends at `until`
// at the latest.
void HeldConnection::wait(std::unique_ptr<HeldConnection> self) {
  Connection& connection = self->connection_;
  if (!connection.is_open()) return;  // ended and recorded: the state goes with `self`
  if (Clock::now() >= self->until_) {
    woke(std::move(self), /*readable=*/false);  // only what has arrived is read
    return;
  }
  if (connection.buffered()) {  // decrypted bytes wait in the TLS session, not the socket
    woke(std::move(self), /*readable=*/true);
    return;
  }
  HeldSet::of(connection.socket_).park(std::move(self));
}

void HeldConnection::woke(std::unique_ptr<HeldConnection> self, bool readable) {
  Connection& connection = self->connection_;
  if (const auto ended = connection.read_available(Connection::kReadBurst)) {
    if (connection.note_server_end(ended)) {
      auto executor = connection.socket_.get_executor();
      asio::co_spawn(executor, Connection::linger(std::move(connection)), rethrow_error);
    } else {
      connection.close_socket();
    }
    return;
  }
  if (readable) {
    wait(std::move(self));
    return;
  }
  if (self->then_) {
    const auto then = std::move(self->then_);
    (*then)(std::move(connection));
    return;
  }
  connection.end(Ending::open, {});
}

// An HTTP/2 connection that answers the server's SETTINGS and PINGs holds in read_until(),
// which sends those replies between its reads: a coroutine frame more, for a few h2 clients.
struct Connection::H2Hold {
  Connection connection;
  Clock::time_point until;
  Continuation then;
};

awaitable<void> Connection::hold_h2(std::unique_ptr<H2Hold> held) {
  Connection& connection = held->connection;
  const Wait wait = co_await connection.read_until(held->until);
  if (wait == Wait::ended) co_return;
  if (held->then) {
    const auto then = std::move(held->then);
    then(std::move(connection));
  } else {
    connection.end(Ending::open, {});
  }
}

void Connection::hold_until_closed(Connection connection, Clock::time_point until) {
  if (connection.h2_ && connection.h2_->answers_control()) {
    auto executor = connection.socket_.get_executor();
    auto held = std::make_unique<H2Hold>(H2Hold{std::move(connection), until, {}});
    asio::co_spawn(executor, hold_h2(std::move(held)), rethrow_error);
    return;
  }
  HeldConnection::wait(std::make_unique<HeldConnection>(std::move(connection), until));
}

void Connection::hold_until(Connection connection, Clock::time_point at, Continuation then) {
  if (connection.h2_ && connection.h2_->answers_control()) {
    auto executor = connection.socket_.get_executor();
    auto held = std::make_unique<H2Hold>(H2Hold{std::move(connection), at, std::move(then)});
    asio::co_spawn(executor, hold_h2(std::move(held)), rethrow_error);
    return;
  }
  HeldConnection::wait(
      std::make_unique<HeldConnection>(std::move(connection), at, std::move(then)));
}

}  // namespace loiter::clients
