#include "loiter/clients/connection.hpp"

#include <fmt/format.h>
#include <netinet/in.h>

#include <array>
#include <boost/asio/write.hpp>
#include <span>

namespace loiter::clients {

using namespace asio::experimental::awaitable_operators;
using boost::system::error_code;

namespace {

// Received bytes land here and are fed to the parser at once: a held connection owns no
// receive buffer of its own. One buffer per thread, as one io_context runs on one thread.
std::span<char> scratch() {
  thread_local std::array<char, 64 * 1024> buffer;
  return buffer;
}

void bind_source(tcp::socket& socket, const asio::ip::address& source) {
  if (source.is_unspecified()) return;
  if (source.is_v4()) {
    // Defer the port choice to connect(), so the 4-tuple, not the source port alone,
    // must be unique: each source address then has the whole ephemeral range per target.
    const int one = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
  }
  socket.bind(tcp::endpoint(source, 0));
}

}  // namespace

Connection::Connection(const asio::any_io_executor& executor, std::string_view kind)
    : socket_(executor) {
  record_.kind = kind;
}

Duration Connection::since_connect() const { return Clock::now() - record_.connected(); }

awaitable<bool> Connection::connect(tcp::endpoint target, asio::ip::address source,
                                    Duration timeout) {
  record_.connect_start = Clock::now();
  error_code ec;
  socket_.open(target.protocol(), ec);
  if (!ec && source.is_v4() == target.address().is_v4()) {
    try {
      bind_source(socket_, source);
    } catch (const boost::system::system_error& e) {
      ec = e.code();
    }
  }
  if (!ec) {
    asio::steady_timer timer(socket_.get_executor(), timeout);
    auto outcome =
        co_await (socket_.async_connect(target, as_values) || timer.async_wait(as_values));
    ec = outcome.index() == 0 ? std::get<0>(std::get<0>(outcome)) : asio::error::timed_out;
  }
  record_.connect_took = Clock::now() - record_.connect_start;
  if (ec) {
    end(Ending::connect_failed, ec);
    co_return false;
  }
  error_code ignored;
  const auto local = socket_.local_endpoint(ignored);
  record_.source = fmt::format("{}:{}", local.address().to_string(), local.port());
  socket_.non_blocking(true, ignored);
  co_return true;
}

awaitable<bool> Connection::send(std::string_view bytes) {
  auto [ec, n] = co_await asio::async_write(socket_, asio::buffer(bytes), as_values);
  record_.sends.push_back({.at = since_connect(), .bytes = n});
  co_return !ec;
}

awaitable<error_code> Connection::read_until_error() {
  for (;;) {
    auto [wait_ec] = co_await socket_.async_wait(tcp::socket::wait_read, as_values);
    if (wait_ec) co_return wait_ec;
    const auto buffer = scratch();
    error_code ec;
    const std::size_t n = socket_.read_some(asio::buffer(buffer.data(), buffer.size()), ec);
    if (n > 0) {
      if (!record_.first_byte) record_.first_byte = since_connect();
      record_.bytes_received += n;
      if (auto response = reader_.feed({buffer.data(), n})) record_.response = std::move(response);
    }
    if (ec && ec != asio::error::would_block) co_return ec;
  }
}

awaitable<void> Connection::observe_until_closed(Duration patience) {
  // Both branches report their outcome as a value, so `||` means "whichever ends first":
  // a reset read wins the race just as an EOF does, and is never taken for a timeout.
  asio::steady_timer patience_timer(socket_.get_executor(), record_.connected() + patience);
  auto outcome = co_await (read_until_error() || patience_timer.async_wait(as_values));
  if (outcome.index() == 1) {
    end(Ending::open, {});
  } else {
    const error_code ec = std::get<0>(outcome);
    end(ec == asio::error::eof ? Ending::close : Ending::reset, ec);
  }
}

void Connection::end(Ending ending, const error_code& ec) {
  record_.ending = ending;
  record_.ended_at = ending == Ending::connect_failed ? Duration{} : since_connect();
  if (ec && ec != asio::error::eof) record_.error = ec.message();
  error_code ignored;
  socket_.close(ignored);
}

}  // namespace loiter::clients
