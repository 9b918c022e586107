// An in-process server for client tests: accepts on 127.0.0.1 (port chosen by the OS) on its
// own thread, records every byte each connection receives and when, and ends each accepted
// connection in one chosen way at a known time.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loopback_peer.hpp"

namespace loiter::clients::testing {

enum class PeerAction { close, reset, respond_then_close, respond_then_reset, never_close };

inline constexpr std::string_view kTimeout408 =
    "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
inline constexpr std::string_view kOk200 =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok";

struct PeerScript {
  PeerAction action = PeerAction::close;
  std::chrono::milliseconds after{0};  // from accept; with `answer`, from the last answer
  std::string response{kTimeout408};   // for respond_then_*
  // The listen backlog holds connections (the client's connect completes) until then.
  std::chrono::milliseconds accept_after{0};
  // If set: sent whenever a whole request head (up to an empty line) has arrived.
  std::optional<std::string> answer;
};

struct Arrival {
  Clock::time_point at;
  std::string bytes;
};

// What one accepted connection saw.
struct PeerConnection {
  Clock::time_point accepted;
  std::vector<Arrival> arrivals;
  std::optional<Clock::time_point> client_ended;  // the client's FIN or RST arrived
  // When the peer acted (its answer, FIN or RST went): the moment a client's record must
  // show, whenever the peer's own timer let it act.
  std::optional<Clock::time_point> acted;
  std::string client_ending;  // "eof", or the error (a reset)

  std::string received() const;
};

class Peer : public RecordingPeer<PeerConnection> {
 public:
  explicit Peer(PeerScript script);
  ~Peer();

 private:
  struct Served;
  awaitable<void> read_loop(std::shared_ptr<Served> served);
  awaitable<void> act(std::shared_ptr<Served> served);

  PeerScript script_;
};

}  // namespace loiter::clients::testing
