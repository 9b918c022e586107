// The generator's connections: connecting a slot (its source address, TLS handshake, all
// by the slot's deadline), the client's FIN and RST, and setting the kept-alive connection
// aside while a churn request uses a connection of its own.
#include <boost/asio/ssl/error.hpp>

#include "load_run.hpp"
#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients::load_detail {

using boost::system::error_code;

namespace {

void swap_connections(Slot& slot) {
  std::swap(slot.socket, slot.parked_socket);
  std::swap(slot.tls, slot.parked_tls);
  std::swap(slot.served, slot.parked_served);
}

// The TLS handshake of a fresh pool connection, by the slot's deadline (the watchdog cancels
// the wait): a failure is counted as "handshake-failed".
awaitable<bool> handshake(Run& run, Slot& slot) {
  slot.tls = new_tls_session(*run.options.tls, slot.socket.native_handle(), nullptr);
  TlsResult result{.ec = asio::error::no_memory};
  if (slot.tls) {
    result = co_await tls_drive(slot.socket,
                                [session = slot.tls.get()] { return tls_handshake_step(session); });
  }
  if (result.ec) {
    ++run.out.errors["handshake-failed"];
    close_slot(slot);
    co_return false;
  }
  co_return true;
}

}  // namespace

// The client's close: FIN (a plain close; the whole answer has been read).
void close_slot(Slot& slot) {
  error_code ignored;
  slot.socket.close(ignored);
  slot.tls.reset();
  slot.filled = 0;
  slot.deadline = kNever;
}

// The client's reset: RST (SO_LINGER 0, then close).
void reset_slot(Slot& slot) {
  error_code ignored;
  slot.socket.set_option(asio::socket_base::linger(true, 0), ignored);
  close_slot(slot);
}

// Sets the kept-alive connection aside for a churn request, which connects on its own; one
// with unread bytes (extra after its last answer) is closed instead.
void park(Slot& slot) {
  if (slot.parked) return;  // still parked: a churn request waiting to connect
  if (slot.filled > 0) close_slot(slot);
  swap_connections(slot);
  slot.parked = true;
}

// Ends the churn request's connection (if it is still open, it failed: it is not reused)
// and brings the kept-alive one back.
void unpark(Slot& slot) {
  close_slot(slot);
  swap_connections(slot);
  slot.parked = false;
}

// A failure (the server refuses, or no source port is left: EADDRNOTAVAIL) is counted as
// "connect-failed"; the slot tries again a little later.
awaitable<bool> connect(Run& run, Slot& slot) {
  const auto& server = run.options.server;
  error_code ec;
  slot.socket.open(server.protocol(), ec);
  if (!ec) slot.socket.set_option(tcp::no_delay(true), ec);
  if (!ec) slot.socket.non_blocking(true, ec);  // send_request writes without waiting
  const auto source = source_for(server, run.options.source_offset + run.out.connections_opened);
  if (!ec) ec = bind_source(slot.socket, server, source);
  if (!ec) {
    slot.deadline = Clock::now() + run.options.request_timeout;
    slot.timed_out = false;
    auto [connect_ec] = co_await slot.socket.async_connect(server, as_values);
    ec = connect_ec;
  }
  if (ec) {
    ++run.out.errors["connect-failed"];
    close_slot(slot);
    co_return false;
  }
  if (run.options.tls) {  // within the same deadline
    const bool done = co_await handshake(run, slot);
    if (!done) co_return false;
  }
  slot.deadline = kNever;
  slot.served = 0;
  ++run.out.connections_opened;
  co_return true;
}

}  // namespace loiter::clients::load_detail
