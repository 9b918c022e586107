// Connection::hold_until_closed(): the long wait at the end of a behaviour, kept out of
// coroutine frames. A coroutine frame holds everything live across its suspension points
// (and the spawn keeps two more frames above it), ~0.9 KiB per connection; the held state
// here is the connection itself, its patience and one deadline-queue entry, owned by the
// handler of the one readiness wait outstanding. When the io_context is destroyed with
// the wait pending, the handler goes and takes the connection (and its socket) with it.
//
// The steps are read_until()'s, for any number of responses: wait until the socket is
// readable or `until`; read what arrived (even when the time came first, so an EOF or RST
// that arrived with it counts); the server's ending is recorded; readable without an ending
// waits again; the time come ends the connection as `open` (the client closes its end), or,
// with a continuation, hands it on. It is the only way a behaviour waits for the end.
#include <memory>
#include <optional>

#include "loiter/clients/transport/connection.hpp"
#include "transport/deadlines.hpp"

namespace loiter::clients {

class HeldConnection {
 public:
  HeldConnection(Connection connection, Clock::time_point until, Connection::Continuation then = {})
      : connection_(std::move(connection)), until_(until), then_(std::move(then)) {}

  static void wait(std::unique_ptr<HeldConnection> self);

 private:
  static void woke(std::unique_ptr<HeldConnection> self, bool readable);

  Connection connection_;
  Clock::time_point until_;
  Connection::Continuation then_;     // empty: the time come ends it as `open`
  std::optional<Deadline> deadline_;  // while the wait is outstanding
};

// Bounded: each turn either ends the connection or waits on the socket again, and the
// wait ends at `until` at the latest.
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
  self->deadline_.emplace(connection.socket_, self->until_);
  connection.socket_.async_wait(
      Socket::wait_read, [self = std::move(self)](const boost::system::error_code& ec) mutable {
        self->deadline_.reset();
        woke(std::move(self), ec != asio::error::operation_aborted);
      });
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
    then(std::move(connection));
    return;
  }
  connection.end(Ending::open, {});
}

// An HTTP/2 connection that answers the server's SETTINGS and PINGs holds in read_until(),
// which sends those replies between its reads: a coroutine frame more, for a few h2 clients.
awaitable<void> Connection::hold_h2(Connection connection, Clock::time_point until,
                                    Continuation then) {
  if (co_await connection.read_until(until) == Wait::ended) co_return;
  if (then) {
    then(std::move(connection));
  } else {
    connection.end(Ending::open, {});
  }
}

void Connection::hold_until_closed(Connection connection, Clock::time_point until) {
  if (connection.h2_ && connection.h2_->answers_control()) {
    auto executor = connection.socket_.get_executor();
    asio::co_spawn(executor, hold_h2(std::move(connection), until, {}), rethrow_error);
    return;
  }
  HeldConnection::wait(std::make_unique<HeldConnection>(std::move(connection), until));
}

void Connection::hold_until(Connection connection, Clock::time_point at, Continuation then) {
  if (connection.h2_ && connection.h2_->answers_control()) {
    auto executor = connection.socket_.get_executor();
    asio::co_spawn(executor, hold_h2(std::move(connection), at, std::move(then)), rethrow_error);
    return;
  }
  HeldConnection::wait(
      std::make_unique<HeldConnection>(std::move(connection), at, std::move(then)));
}

}  // namespace loiter::clients
