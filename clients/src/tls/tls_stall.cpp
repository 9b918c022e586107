#include "loiter/clients/tls/tls_stall.hpp"

#include <numeric>
#include <stdexcept>

#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/steps.hpp"
#include "loiter/clients/tls/client_hello.hpp"

namespace loiter::clients {

namespace {

// Bytes of the hello the connection has sent, in its record: how far its handshake got.
// Over the fleet's TLS the transport counts them itself (and notes an alert among the
// server's bytes); on a plain connection they are counted here from the sends.
void note_handshake_sent(ConnectionRecord& record) {
  if (record.tls) return;
  TlsRecord tls;
  tls.handshake_sent =
      std::accumulate(record.sends.begin(), record.sends.end(), std::size_t{0},
                      [](std::size_t sum, const Send& s) { return sum + s.bytes; });
  record.tls = std::move(tls);
}

// The raw kinds write their own hello: they connect without starting the handshake.
struct ConnectWithoutHandshake {
  awaitable<bool> operator()(Connection& connection, const TlsStallOptions& options,
                             const Slot& slot) const {
    return connect_at_slot(connection, options, slot, /*handshake=*/false);
  }
};

// Sends the first `bytes` of the hello at once; the hold is the wait.
awaitable<void> send_part_of_hello(Connection& connection, const TlsStallOptions& options,
                                   const Slot& slot, Clock::time_point until, std::size_t bytes) {
  co_await connection.send(std::string_view(options.hello).substr(0, bytes), until);
  note_handshake_sent(slot.record);
}

awaitable<void> send_record_header(Connection& connection, const TlsStallOptions& options,
                                   const Slot& slot, Clock::time_point until) {
  co_await send_part_of_hello(connection, options, slot, until, kTlsRecordHeaderSize);
}

awaitable<void> send_half_hello(Connection& connection, const TlsStallOptions& options,
                                const Slot& slot, Clock::time_point until) {
  co_await send_part_of_hello(connection, options, slot, until, options.hello.size() / 2);
}

// The first byte at once, then bytes 1 … size-2 on the schedule: never the whole hello.
awaitable<void> trickle_hello(Connection& connection, const TlsStallOptions& options,
                              const Slot& slot, Clock::time_point until) {
  const std::string_view hello = options.hello;
  const bool sent = co_await connection.send(hello.substr(0, 1), until);
  if (sent && hello.size() > 2) {
    const auto schedule = follow_up_schedule(connection, options.interval, slot);
    co_await trickle(
        connection, schedule, hello.size() - 2, [hello](std::size_t k) { return hello[k + 1]; },
        until, /*completes_request=*/false);
  }
  note_handshake_sent(slot.record);
}

// The handshake completes within the connect; then nothing is sent.
awaitable<void> send_nothing(Connection&, const TlsStallOptions&, const Slot&, Clock::time_point) {
  co_return;
}

// The fleet's options with the hello made, once for all its connections.
TlsStallOptions with_hello(const TlsStallOptions& options) {
  auto made = options;
  if (made.hello.empty()) made.hello = client_hello(made.hello_settings);
  return made;
}

awaitable<void> tls_late_head_connection(Shared<TlsStallOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kTlsLateHead);
  const bool connected = co_await connect_at_slot(connection, *options, slot, /*handshake=*/false);
  if (!connected) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  co_await connection.pause_until(connection.connected() + options->delay);
  // A server that ended the connection meanwhile fails the handshake, which records how.
  if (!co_await connection.handshake(until)) co_return;
  co_await connection.send(
      partial_head({.path = options->path, .host = "localhost"}, StallPoint::mid_header_value),
      until);
  Connection::hold_until_closed(std::move(connection), until);
}

}  // namespace

void spawn_tls_record_header(asio::io_context& io, const TlsStallOptions& options,
                             std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, with_hello(options), kTlsRecordHeader, &send_record_header, out,
                     ConnectWithoutHandshake{});
}

void spawn_tls_half_hello(asio::io_context& io, const TlsStallOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, with_hello(options), kTlsHalfHello, &send_half_hello, out,
                     ConnectWithoutHandshake{});
}

void spawn_tls_hello_trickle(asio::io_context& io, const TlsStallOptions& options,
                             std::vector<ConnectionRecord>& out) {
  spawn_holding_kind(io, with_hello(options), kTlsHelloTrickle, &trickle_hello, out,
                     ConnectWithoutHandshake{});
}

void spawn_tls_handshake_silent(asio::io_context& io, const TlsStallOptions& options,
                                std::vector<ConnectionRecord>& out) {
  if (!options.fleet.tls) {
    throw std::invalid_argument("tls-handshake-silent needs the fleet's TLS (options.fleet.tls)");
  }
  spawn_holding_kind(io, options, kTlsHandshakeSilent, &send_nothing, out);
}

void spawn_tls_late_head(asio::io_context& io, const TlsStallOptions& options,
                         std::vector<ConnectionRecord>& out) {
  if (!options.fleet.tls) {
    throw std::invalid_argument("tls-late-head needs the fleet's TLS (options.fleet.tls)");
  }
  spawn_kind(io, options, &tls_late_head_connection, out);
}

}  // namespace loiter::clients
