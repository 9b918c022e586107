#include "load_peer.hpp"

#include <algorithm>
#include <array>
#include <boost/asio/write.hpp>
#include <cctype>
#include <cstdlib>
#include <string_view>

// g++ 12 reports a false -Wmismatched-new-delete on this coroutine's frame (Asio's frame
// operator new/delete pair); the frame is allocated and freed by Asio's own pair.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace loiter::clients::testing {

using boost::system::error_code;

LoadPeer::LoadPeer(LoadPeerScript script) : script_(std::move(script)) {
  start([this](tcp::socket socket) {
    ++accepted_;
    asio::co_spawn(io_, serve(std::make_shared<tcp::socket>(std::move(socket))), asio::detached);
  });
}

LoadPeer::~LoadPeer() { stop(); }

namespace {

// The Content-Length a request head announces; 0 without one.
std::size_t announced_body(std::string_view head) {
  constexpr std::string_view kName = "\r\ncontent-length:";
  std::string lower(head);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const auto at = lower.find(kName);
  if (at == std::string::npos) return 0;
  return static_cast<std::size_t>(std::strtoull(lower.c_str() + at + kName.size(), nullptr, 10));
}

bool asks_close(std::string_view head) {
  std::string lower(head);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("\r\nconnection: close\r\n") != std::string::npos;
}

void end_connection(tcp::socket& socket, Reply how) {
  error_code ignored;
  if (how == Reply::reset) {
    socket.set_option(asio::socket_base::linger(true, 0), ignored);  // close() sends RST
  } else {
    socket.shutdown(tcp::socket::shutdown_send, ignored);
  }
  socket.close(ignored);
}

}  // namespace

awaitable<void> LoadPeer::serve(std::shared_ptr<tcp::socket> connection) {
  auto& socket = *connection;
  std::array<char, 16 * 1024> buffer;
  std::string unanswered;
  asio::steady_timer timer(io_);
  for (;;) {  // ends with the connection
    auto [ec, n] = co_await socket.async_read_some(asio::buffer(buffer), as_values);
    if (ec) co_return note_client_end(ec);
    unanswered.append(buffer.data(), n);
    // Each whole request (a head and the body its Content-Length announces): bounded by the
    // bytes received.
    for (auto end = unanswered.find("\r\n\r\n"); end != std::string::npos;
         end = unanswered.find("\r\n\r\n")) {
      const auto head = std::string_view(unanswered).substr(0, end + 4);
      const std::size_t body = announced_body(head);
      if (unanswered.size() < end + 4 + body) break;  // the rest of the body is still to come
      const bool close_after = script_.honour_close && asks_close(head);
      unanswered.erase(0, end + 4 + body);
      body_bytes_ += body;
      const std::uint64_t number = requests_++;
      const auto now = Clock::now();
      if (now >= script_.stall_from && now < script_.stall_until) {
        timer.expires_at(script_.stall_until);
        co_await timer.async_wait(as_values);
      }
      const Reply reply = script_.reply(number);
      if (reply == Reply::reset || reply == Reply::close) {
        end_connection(socket, reply);
        co_return;
      }
      if (reply == Reply::answer) {
        std::string response = script_.response(number);
        // As a server must: an answer that ends the connection says so.
        if (close_after) response.insert(response.find("\r\n") + 2, "Connection: close\r\n");
        auto [write_ec, written] =
            co_await asio::async_write(socket, asio::buffer(response), as_values);
        if (write_ec) co_return note_client_end(write_ec);
        if (close_after) co_return end_connection(socket, Reply::close);
      }
    }
  }
}

void LoadPeer::note_client_end(const error_code& ec) {
  {
    std::lock_guard lock(ends_mutex_);
    if (ec == asio::error::eof) ++client_closes_;
    if (ec == asio::error::connection_reset || ec == asio::error::broken_pipe) ++client_resets_;
  }
  ends_changed_.notify_all();
}

std::uint64_t LoadPeer::client_closes() const {
  std::lock_guard lock(ends_mutex_);
  return client_closes_;
}

std::uint64_t LoadPeer::client_resets() const {
  std::lock_guard lock(ends_mutex_);
  return client_resets_;
}

bool LoadPeer::wait_for_client_ends(std::uint64_t n, Duration within) {
  std::unique_lock lock(ends_mutex_);
  return ends_changed_.wait_for(lock, within, [&] { return client_closes_ + client_resets_ >= n; });
}

}  // namespace loiter::clients::testing
