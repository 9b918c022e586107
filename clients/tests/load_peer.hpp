// An in-process HTTP/1.1 server for load-generator tests: accepts on 127.0.0.1 (port from
// the OS) on its own thread and replies to each request (a head and the body its
// Content-Length announces), numbered across connections in arrival order, as the script
// says: answer, reset, close, or ignore it. During a stall window it holds every answer
// until the window ends.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/record.hpp"

namespace loiter::clients::testing {

enum class Reply { answer, reset, close, ignore };

struct LoadPeerScript {
  // Request n (0-based, over all connections) gets this reply; answers carry response(n).
  std::function<Reply(std::uint64_t n)> reply = [](std::uint64_t) { return Reply::answer; };
  std::function<std::string(std::uint64_t n)> response = [](std::uint64_t) {
    return std::string("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  };
  Clock::time_point stall_from = Clock::time_point::max();
  Clock::time_point stall_until = Clock::time_point::max();
};

class LoadPeer {
 public:
  explicit LoadPeer(LoadPeerScript script);
  ~LoadPeer();
  LoadPeer(const LoadPeer&) = delete;
  LoadPeer& operator=(const LoadPeer&) = delete;

  tcp::endpoint endpoint() const { return endpoint_; }
  std::uint64_t requests() const { return requests_.load(); }
  std::uint64_t accepted() const { return accepted_.load(); }
  std::uint64_t body_bytes() const { return body_bytes_.load(); }  // over every request

 private:
  awaitable<void> accept_loop();
  awaitable<void> serve(std::shared_ptr<tcp::socket> connection);

  LoadPeerScript script_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  tcp::endpoint endpoint_;
  std::atomic<std::uint64_t> requests_{0};
  std::atomic<std::uint64_t> accepted_{0};
  std::atomic<std::uint64_t> body_bytes_{0};
  std::thread thread_;
};

}  // namespace loiter::clients::testing
