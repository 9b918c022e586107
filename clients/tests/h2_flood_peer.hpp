// A scripted HTTP/2 peer for the flood tests: accepts on 127.0.0.1 on its own thread, reads
// the client's preface and frames, counts them, and answers as scripted: its SETTINGS at
// once, a 200 to each whole request (HEADERS with END_STREAM) if asked, and a GOAWAY after
// the client's Nth frame (then, if asked, its close). It speaks only as much h2 as these
// scripts need.
#pragma once

#include <cstdint>
#include <optional>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loopback_peer.hpp"

namespace loiter::clients::testing {

struct FloodPeerScript {
  std::optional<std::size_t> goaway_after;  // the client's frames (all types) before the GOAWAY
  std::uint32_t goaway_code = 0xb;          // ENHANCE_YOUR_CALM
  bool close_after_goaway = true;
  bool answer = false;  // a 200 to each HEADERS with END_STREAM and END_HEADERS
};

// What one accepted connection saw.
struct FloodPeerConnection {
  bool preface = false;    // the 24 preface bytes came first
  std::size_t frames = 0;  // the client's frames, every type
  std::size_t by_type[16] = {};
  std::size_t frames_at_goaway = 0;  // how many had come when the GOAWAY was sent
  Clock::time_point accepted;
  std::optional<Clock::time_point> last_frame;
  bool client_ended = false;
};

class H2FloodPeer : public RecordingPeer<FloodPeerConnection> {
 public:
  explicit H2FloodPeer(FloodPeerScript script);
  ~H2FloodPeer();

 private:
  struct Served;
  awaitable<void> serve(std::shared_ptr<Served> served);

  FloodPeerScript script_;
};

}  // namespace loiter::clients::testing
