// An in-process HTTP/2 server for the HTTP/2 load generator's tests: accepts h2c (prior
// knowledge) on 127.0.0.1 on its own thread and speaks through nghttp2's server session
// (SETTINGS, acks, windows), so a test scripts only what it checks: the
// MAX_CONCURRENT_STREAMS it announces, how long each answer is held, which requests are
// reset (and with what code), and after how many requests a connection gets a GOAWAY whose
// last_stream_id is that request's stream. It counts what the client did: the most streams
// open at once on one connection, the RST_STREAMs it sent, the connections it opened.
#pragma once

#include <atomic>
#include <boost/asio/ssl/context.hpp>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"

namespace loiter::clients::testing {

struct H2LoadPeerScript {
  std::optional<std::uint32_t> max_concurrent_streams;  // announced when set
  std::chrono::milliseconds hold{0};                    // each answer held this long
  // Request n (0-based, in arrival order over all connections): 0 answers it with 200;
  // another code resets its stream with that code.
  std::function<std::uint32_t(std::uint64_t n)> reset = [](std::uint64_t) { return 0u; };
  // A connection's `goaway_after`-th request is answered, then a GOAWAY (NO_ERROR) names its
  // stream as the last: the requests that came after it on that connection are not answered.
  std::size_t goaway_after = 0;  // 0: never
  // Over TLS (a throwaway certificate), choosing ALPN "h2" when the client offers it.
  bool tls = false;
};

class H2LoadPeer {
 public:
  explicit H2LoadPeer(H2LoadPeerScript script);
  ~H2LoadPeer();
  H2LoadPeer(const H2LoadPeer&) = delete;
  H2LoadPeer& operator=(const H2LoadPeer&) = delete;

  tcp::endpoint endpoint() const { return endpoint_; }
  std::uint64_t requests() const { return requests_.load(); }  // whole requests seen
  std::uint64_t answered() const { return answered_.load(); }  // 200s sent
  std::uint64_t accepted() const { return accepted_.load(); }
  std::uint64_t body_bytes() const { return body_bytes_.load(); }  // DATA over every request
  // Requests that came on a connection after its GOAWAY, above its last stream: unanswered.
  std::uint64_t past_goaway() const { return past_goaway_.load(); }
  std::size_t most_open() const { return most_open_.load(); }          // on one connection
  std::size_t most_requests() const { return most_requests_.load(); }  // on one connection
  std::map<std::uint32_t, std::uint64_t> client_resets() const;        // RST_STREAM code -> count
  // The RST_STREAMs of `code` seen once `count` have come, or at `deadline`.
  std::uint64_t wait_client_resets(std::uint32_t code, std::uint64_t count,
                                   std::chrono::steady_clock::time_point deadline) const;
  // The connections accepted once `count` have been, or at `deadline`: the peer accepts one a
  // poll, so a connection the client made last may still be in the backlog when its run ends.
  std::uint64_t wait_accepted(std::uint64_t count,
                              std::chrono::steady_clock::time_point deadline) const;

 private:
  struct Conn;
  void serve();

  H2LoadPeerScript script_;
  std::optional<asio::ssl::context> tls_;
  int listener_ = -1;
  tcp::endpoint endpoint_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> requests_{0}, answered_{0}, accepted_{0}, past_goaway_{0},
      body_bytes_{0};
  std::atomic<std::size_t> most_open_{0}, most_requests_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable reset_seen_, accepted_seen_;
  std::map<std::uint32_t, std::uint64_t> client_resets_;
  std::thread thread_;
  friend struct H2LoadPeerCallbacks;
};

}  // namespace loiter::clients::testing
