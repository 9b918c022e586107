// What the in-process peers of the client tests share. LoopbackPeer: an acceptor on
// 127.0.0.1 at a port the OS chose and an io_context run on the peer's own thread.
// RecordingPeer: also what each accepted connection saw, one record each in accept order,
// behind a mutex, so a test reads snapshots while the peer's thread writes them.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/testing/wait.hpp"

namespace loiter::clients::testing {

class LoopbackPeer {
 public:
  LoopbackPeer(const LoopbackPeer&) = delete;
  LoopbackPeer& operator=(const LoopbackPeer&) = delete;

  tcp::endpoint endpoint() const { return endpoint_; }

 protected:
  LoopbackPeer()
      : acceptor_(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)),
        endpoint_(acceptor_.local_endpoint()) {}
  ~LoopbackPeer() { stop(); }

  // Starts the peer's thread: there it accepts each connection, once `accept_after` has
  // passed (until then the listen backlog holds them: the client's connect completes), and
  // hands it to `accepted`, until the io_context stops. A peer calls it last in its
  // constructor.
  void start(std::function<void(tcp::socket)> accepted,
             std::chrono::milliseconds accept_after = {}) {
    asio::co_spawn(io_, accept_each(std::move(accepted), accept_after), asio::detached);
    thread_ = std::thread([this] { io_.run(); });
  }
  // Stops the io_context and joins the thread. A peer's destructor calls it first, so that
  // nothing runs on that thread once the peer's own members are gone.
  void stop() {
    if (!thread_.joinable()) return;
    io_.stop();
    thread_.join();
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;

 private:
  awaitable<void> accept_each(std::function<void(tcp::socket)> accepted,
                              std::chrono::milliseconds accept_after) {
    if (accept_after > accept_after.zero()) {
      asio::steady_timer timer(io_, accept_after);
      co_await timer.async_wait(as_values);
    }
    for (;;) {  // ends when the io_context stops
      auto [ec, socket] = co_await acceptor_.async_accept(as_values);
      if (ec) co_return;
      accepted(std::move(socket));
    }
  }

  tcp::endpoint endpoint_;
  std::thread thread_;
};

template <typename Connection>
class RecordingPeer : public LoopbackPeer {
 public:
  std::vector<Connection> connections() const {  // a snapshot
    const std::lock_guard lock(mutex_);
    return {seen_.begin(), seen_.end()};
  }

  // Waits (at most `timeout`) until `count` connections have been ended by the client
  // (Connection::client_ended, a flag or the time).
  ::testing::AssertionResult wait_for_client_ends(std::size_t count, Duration timeout) const {
    std::size_t ended = 0;
    auto result = loiter::testing::wait_for(
        [&] {
          ended = 0;
          for (const auto& c : connections()) ended += static_cast<bool>(c.client_ended);
          return ended >= count;
        },
        fmt::format("{} client endings", count), timeout, std::chrono::milliseconds(1));
    if (!result) result << ", saw " << ended;
    return result;
  }

 protected:
  // Records a connection just accepted, as `first`; returns its index in seen_.
  std::size_t record(Connection first) {
    const std::lock_guard lock(mutex_);
    seen_.push_back(std::move(first));
    return seen_.size() - 1;
  }

  // Changes connection `index`'s record under the mutex: change(Connection&).
  template <typename Change>
  void note(std::size_t index, Change&& change) {
    const std::lock_guard lock(mutex_);
    change(seen_[index]);
  }

  mutable std::mutex mutex_;
  std::deque<Connection> seen_;
};

}  // namespace loiter::clients::testing
