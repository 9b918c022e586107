// An in-process HTTP/1.1 server for load-generator tests: accepts on 127.0.0.1 (port from
// the OS) on its own thread and replies to each request (a head and the body its
// Content-Length announces), numbered across connections in arrival order, as the script
// says: answer, reset, close, or ignore it. During a stall window it holds every answer
// until the window ends. A request with "Connection: close" is answered with the same
// field, then the peer closes (FIN), unless told to keep the connection open. It counts how the
// client ended its connections (FIN or RST), and a test can wait for those counts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loopback_peer.hpp"

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
  bool honour_close = true;  // false: "Connection: close" is answered, the connection kept
};

class LoadPeer : public LoopbackPeer {
 public:
  explicit LoadPeer(LoadPeerScript script);
  ~LoadPeer();

  std::uint64_t requests() const { return requests_.load(); }
  std::uint64_t accepted() const { return accepted_.load(); }
  std::uint64_t body_bytes() const { return body_bytes_.load(); }  // over every request
  std::uint64_t client_closes() const;  // connections the client ended with FIN
  std::uint64_t client_resets() const;  // connections the client ended with RST
  // Waits until the client has ended `n` connections (FIN or RST), at most `within`.
  bool wait_for_client_ends(std::uint64_t n, Duration within);

 private:
  awaitable<void> serve(std::shared_ptr<tcp::socket> connection);
  void note_client_end(const boost::system::error_code& ec);

  LoadPeerScript script_;
  std::atomic<std::uint64_t> requests_{0};
  std::atomic<std::uint64_t> accepted_{0};
  std::atomic<std::uint64_t> body_bytes_{0};
  mutable std::mutex ends_mutex_;
  std::condition_variable ends_changed_;
  std::uint64_t client_closes_ = 0, client_resets_ = 0;
};

}  // namespace loiter::clients::testing
