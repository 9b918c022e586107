// Connection's steps that differ over TLS: the handshake, and the one read and one write
// every other step goes through (see connection.hpp and transport/tls_session.hpp).
#include <fmt/format.h>

#include <boost/asio/write.hpp>

#include "loiter/clients/transport/connection.hpp"
#include "transport/deadlines.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients {

using boost::system::error_code;

awaitable<bool> Connection::handshake(Clock::time_point until) {
  TlsResult result;
  {
    const Deadline deadline(socket_, until);  // cancels the wait at `until`
    result = co_await tls_drive(
        socket_, [session = tls_.get()] { return tls_handshake_step(session); }, until);
  }
  auto& tls = *record_->tls;
  tls.handshake_sent = tls_bytes_sent(tls_.get());
  tls.handshake_received = tls_bytes_received(tls_.get());
  if (!result.ec) {
    tls.handshake_done = since_connect();
    tls.version = tls_version(tls_.get());
    tls.alpn = tls_alpn(tls_.get());
    co_return true;
  }
  if (result.ec == asio::error::operation_aborted) {
    end(Ending::open, {});
    record_->error = fmt::format(
        "TLS handshake not done within the connect timeout ({} ms)",
        std::chrono::duration_cast<std::chrono::milliseconds>(until - record_->connect_start)
            .count());
    co_return false;
  }
  co_await server_ended(result.ec);  // close, reset, or alert (noted by the session)
  co_return false;
}

ssl_st* Connection::established() const {
  return tls_ && tls_established(tls_.get()) ? tls_.get() : nullptr;
}

bool Connection::buffered() const {
  auto* session = established();
  return session != nullptr && tls_pending(session);
}

std::size_t Connection::read_some(std::span<char> buffer, error_code& ec, bool& application) {
  application = true;
  if (auto* session = established()) {
    const auto result = tls_read(session, buffer.data(), buffer.size());
    ec = result.ec;
    return result.bytes;
  }
  const std::size_t n = socket_.read_some(asio::buffer(buffer.data(), buffer.size()), ec);
  if (record_->tls) {  // before the handshake: the server's handshake bytes (or an alert)
    application = false;
    tls_note_raw(*record_->tls, buffer.data(), n);
  }
  return n;
}

awaitable<std::pair<error_code, std::size_t>> Connection::write_all(std::string_view bytes,
                                                                    Clock::time_point until) {
  const Deadline deadline(socket_, until);  // cancels the write at `until`
  if (auto* session = established()) {
    if (bytes.empty()) co_return std::pair{error_code{}, std::size_t{0}};
    const auto result = co_await tls_drive(
        socket_, [&] { return tls_write(session, bytes.data(), bytes.size()); }, until);
    co_return std::pair{result.ec, result.ec ? std::size_t{0} : bytes.size()};
  }
  const auto [ec, n] =
      co_await asio::async_write(socket_, asio::buffer(bytes.data(), bytes.size()), as_values);
  if (record_->tls) record_->tls->handshake_sent += n;  // a client writing its own handshake
  co_return std::pair{ec, n};
}

}  // namespace loiter::clients
