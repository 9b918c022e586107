#include "peer.hpp"

#include <boost/asio/write.hpp>

namespace loiter::clients::testing {

Peer::Peer(PeerScript script)
    : script_(std::move(script)),
      acceptor_(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)),
      endpoint_(acceptor_.local_endpoint()) {
  asio::co_spawn(io_, accept_loop(), asio::detached);
  thread_ = std::thread([this] { io_.run(); });
}

Peer::~Peer() {
  io_.stop();
  thread_.join();
}

awaitable<void> Peer::accept_loop() {
  for (;;) {
    auto [ec, socket] = co_await acceptor_.async_accept(as_values);
    if (ec) co_return;
    asio::co_spawn(io_, serve(std::move(socket)), asio::detached);
  }
}

awaitable<void> Peer::serve(tcp::socket socket) {
  asio::steady_timer timer(io_, script_.after);
  co_await timer.async_wait(as_values);
  boost::system::error_code ec;
  switch (script_.action) {
    case PeerAction::respond_then_close:
    case PeerAction::respond_then_reset:
      co_await asio::async_write(socket, asio::buffer(script_.response), as_values);
      break;
    case PeerAction::never_close:
      timer.expires_after(std::chrono::hours(1));
      co_await timer.async_wait(as_values);
      co_return;
    default:
      break;
  }
  if (script_.action == PeerAction::reset || script_.action == PeerAction::respond_then_reset) {
    socket.set_option(asio::socket_base::linger(true, 0), ec);  // close() then sends RST
  } else {
    socket.shutdown(tcp::socket::shutdown_send, ec);
  }
  socket.close(ec);
}

}  // namespace loiter::clients::testing
