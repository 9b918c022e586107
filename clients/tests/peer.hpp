// An in-process server for client tests: accepts on 127.0.0.1 (port chosen by the OS) on its
// own thread, and ends each accepted connection in one chosen way at a known time.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "loiter/clients/asio.hpp"

namespace loiter::clients::testing {

enum class PeerAction { close, reset, respond_then_close, respond_then_reset, never_close };

struct PeerScript {
  PeerAction action = PeerAction::close;
  std::chrono::milliseconds after{0};  // from accept
  std::string response =
      "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
      "Content-Length: 0\r\n\r\n";
};

class Peer {
 public:
  explicit Peer(PeerScript script);
  ~Peer();
  tcp::endpoint endpoint() const { return endpoint_; }

 private:
  awaitable<void> accept_loop();
  awaitable<void> serve(tcp::socket socket);

  PeerScript script_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  tcp::endpoint endpoint_;
  std::thread thread_;
};

}  // namespace loiter::clients::testing
