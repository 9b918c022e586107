// An in-process HTTP/2 server for the h2 clients' tests: accepts on 127.0.0.1 on its own
// thread, reads each connection's preface and frames with FrameReader (so a test checks what
// the client sent, frame by frame), and per script sends its SETTINGS (and a PING), answers
// each whole request with a response whose DATA respects the client's flow-control windows,
// and, a set time after its last answer (or the accept), sends a GOAWAY and closes.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loopback_peer.hpp"

namespace loiter::clients::testing {

struct H2PeerScript {
  bool settings = true;  // sends its SETTINGS once the preface came
  bool ping = false;     // and a PING after them
  bool answer = true;    // answers each request whose header block ended
  std::size_t body = 2;  // the answer's body bytes ("x" each), in DATA the windows allow
  // From the last answer (or the accept): a GOAWAY (if set), then the close.
  std::optional<std::chrono::milliseconds> close_after;
  bool goaway = true;
};

// What one accepted connection saw.
struct H2PeerConnection {
  Clock::time_point accepted;
  std::string raw;                // every byte, preface included
  bool preface = false;           // the whole preface came
  std::vector<h2::Frame> frames;  // the client's frames after it
  std::vector<Clock::time_point> frame_at;
  std::vector<Clock::time_point> answered_at;  // each response's last DATA sent
  bool client_ended = false;

  std::size_t count(h2::Type type) const;
  // The first frame of `type`, if any.
  const h2::Frame* first(h2::Type type) const;
};

class H2Peer : public RecordingPeer<H2PeerConnection> {
 public:
  explicit H2Peer(H2PeerScript script);
  ~H2Peer();

 private:
  struct Served;
  awaitable<void> read_loop(std::shared_ptr<Served> served);
  awaitable<void> closer(std::shared_ptr<Served> served);
  awaitable<void> on_frame(Served& served, const h2::Frame& frame);
  awaitable<void> send_data(Served& served);

  H2PeerScript script_;
};

}  // namespace loiter::clients::testing
