// An in-process TLS server for client tests: accepts on 127.0.0.1 on its own thread with
// Asio's SSL stream and a self-signed certificate made in memory at start (no file, no
// `openssl` command), and per script answers requests, stays silent, closes at a set time,
// or refuses the handshake with a fatal alert. Records what each connection saw.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loopback_peer.hpp"

namespace loiter::clients::testing {

struct TlsPeerScript {
  bool handshake = true;  // false: never answers the ClientHello; reads raw bytes only
  // From accept: the peer closes the connection (FIN, no close_notify), whatever it is doing.
  std::optional<std::chrono::milliseconds> close_after;
  // Refuses every ALPN offer: the handshake ends with a fatal no_application_protocol alert.
  bool alert = false;
};

// The answer to every request head.
inline constexpr std::string_view kTlsPeerOk =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok";
inline constexpr unsigned kNoApplicationProtocol = 120;  // RFC 7301 3.2

// What one accepted connection saw.
struct TlsPeerConnection {
  std::size_t raw_bytes = 0;  // bytes through the socket (handshake: false only)
  bool handshake_done = false;
  std::string received;  // decrypted bytes
  std::size_t answered = 0;
  bool client_ended = false;  // the client's FIN, RST or close_notify arrived (or the peer closed)
  // How the client ended it, as the peer's SSL stream saw it: "close_notify", "truncated"
  // (a FIN without close_notify), or the error; empty while open or when the peer closed.
  std::string client_ending;
  // When the peer acted (close_after fired, its FIN went): the moment a client's record must
  // show, however late the peer's timer ran on a busy machine (as PeerConnection::acted).
  std::optional<Clock::time_point> acted;
};

// Gives `context` a throwaway self-signed certificate for CN=localhost (100 years) and its
// P-256 key, made in memory: the client checks no certificate, a peer needs one.
void use_throwaway_certificate(asio::ssl::context& context);

class TlsPeer : public RecordingPeer<TlsPeerConnection> {
 public:
  explicit TlsPeer(TlsPeerScript script);
  ~TlsPeer();

  // Waits (at most `timeout`) until `count` connections have ended.
  ::testing::AssertionResult wait_for_ends(std::size_t count, Duration timeout) const;

 private:
  struct Served;
  void serve(std::shared_ptr<Served> served);
  void read_raw(std::shared_ptr<Served> served);
  void read_requests(std::shared_ptr<Served> served);
  void ended(const Served& served);

  TlsPeerScript script_;
  asio::ssl::context context_{asio::ssl::context::tls_server};
  mutable std::condition_variable changed_;
};

}  // namespace loiter::clients::testing
