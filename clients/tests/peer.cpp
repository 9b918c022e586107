#include "peer.hpp"

#include <boost/asio/write.hpp>

namespace loiter::clients::testing {

using boost::system::error_code;

struct Peer::Served {
  explicit Served(tcp::socket s, std::size_t i) : socket(std::move(s)), index(i) {}
  tcp::socket socket;
  std::size_t index;
  Clock::time_point last_answer{};
  bool closed_by_peer = false;
};

std::string PeerConnection::received() const {
  std::string all;
  for (const auto& arrival : arrivals) all += arrival.bytes;
  return all;
}

Peer::Peer(PeerScript script) : script_(std::move(script)) {
  start(
      [this](tcp::socket socket) {
        const std::size_t index = record({.accepted = Clock::now()});
        auto served = std::make_shared<Served>(std::move(socket), index);
        asio::co_spawn(io_, read_loop(served), asio::detached);
        asio::co_spawn(io_, act(served), asio::detached);
      },
      script_.accept_after);
}

Peer::~Peer() { stop(); }

awaitable<void> Peer::read_loop(std::shared_ptr<Served> served) {
  std::array<char, 64 * 1024> buffer;
  std::string unanswered;
  for (;;) {  // ends with the connection
    auto [ec, n] = co_await served->socket.async_read_some(asio::buffer(buffer), as_values);
    const auto at = Clock::now();
    if (n > 0)
      note(served->index, [&](auto& c) { c.arrivals.push_back({at, {buffer.data(), n}}); });
    if (ec) {
      if (!served->closed_by_peer) {
        note(served->index, [&](auto& c) {
          c.client_ended = at;
          c.client_ending = ec == asio::error::eof ? "eof" : ec.message();
        });
      }
      co_return;
    }
    if (!script_.answer) continue;
    unanswered.append(buffer.data(), n);
    for (auto end = unanswered.find("\r\n\r\n"); end != std::string::npos;
         end = unanswered.find("\r\n\r\n")) {
      unanswered.erase(0, end + 4);
      co_await asio::async_write(served->socket, asio::buffer(*script_.answer), as_values);
      served->last_answer = Clock::now();
    }
  }
}

awaitable<void> Peer::act(std::shared_ptr<Served> served) {
  asio::steady_timer timer(io_);
  const auto accepted = Clock::now();
  for (int turn = 0; turn < 1000; ++turn) {  // an answer moves the deadline: wait again
    const auto due = std::max(accepted, served->last_answer) + script_.after;
    if (Clock::now() >= due) break;
    timer.expires_at(due);
    co_await timer.async_wait(as_values);
  }
  auto& socket = served->socket;
  error_code ec;
  if (script_.action == PeerAction::never_close) co_return;  // open until the peer goes
  const auto acted = Clock::now();
  note(served->index, [acted](auto& c) { c.acted = acted; });
  switch (script_.action) {
    case PeerAction::never_close:
      co_return;
    case PeerAction::respond_then_close:
    case PeerAction::respond_then_reset:
      co_await asio::async_write(socket, asio::buffer(script_.response), as_values);
      break;
    default:
      break;
  }
  served->closed_by_peer = true;
  if (script_.action == PeerAction::reset || script_.action == PeerAction::respond_then_reset) {
    socket.set_option(asio::socket_base::linger(true, 0), ec);  // close() then sends RST
  } else {
    socket.shutdown(tcp::socket::shutdown_send, ec);
  }
  socket.close(ec);
}

}  // namespace loiter::clients::testing
