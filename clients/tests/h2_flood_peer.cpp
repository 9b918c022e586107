#include "h2_flood_peer.hpp"

#include <boost/asio/write.hpp>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/hpack.hpp"

namespace loiter::clients::testing {

struct H2FloodPeer::Served {
  explicit Served(tcp::socket s, std::size_t i) : socket(std::move(s)), index(i) {}
  tcp::socket socket;
  std::size_t index;
};

H2FloodPeer::H2FloodPeer(FloodPeerScript script) : script_(script) {
  start([this](tcp::socket socket) {
    const std::size_t index = record({.accepted = Clock::now()});
    asio::co_spawn(io_, serve(std::make_shared<Served>(std::move(socket), index)), asio::detached);
  });
}

H2FloodPeer::~H2FloodPeer() { stop(); }

awaitable<void> H2FloodPeer::serve(std::shared_ptr<Served> served) {
  using boost::system::error_code;
  auto& socket = served->socket;
  co_await asio::async_write(socket, asio::buffer(h2::settings({})), as_values);
  std::array<char, 64 * 1024> buffer;
  std::string preface;
  h2::FrameReader reader;
  h2::Encoder encoder;
  bool goaway_sent = false;
  std::size_t frames = 0;
  for (;;) {  // ends with the connection
    auto [ec, n] = co_await socket.async_read_some(asio::buffer(buffer), as_values);
    if (ec) {
      note(served->index, [](FloodPeerConnection& c) { c.client_ended = true; });
      co_return;
    }
    std::string_view bytes(buffer.data(), n);
    if (preface.size() < h2::kPreface.size()) {
      const auto take = std::min(bytes.size(), h2::kPreface.size() - preface.size());
      preface += bytes.substr(0, take);
      bytes.remove_prefix(take);
      note(served->index, [&](FloodPeerConnection& c) {
        c.preface = preface == h2::kPreface.substr(0, preface.size());
      });
    }
    reader.feed(bytes);
    std::string reply;
    while (auto frame = reader.next()) {
      ++frames;
      note(served->index, [&](FloodPeerConnection& c) {
        c.frames = frames;
        ++c.by_type[frame->type & 0xf];
        c.last_frame = Clock::now();
      });
      const bool whole_request = frame->is(h2::Type::headers) &&
                                 (frame->flags & h2::flag::end_stream) != 0 &&
                                 (frame->flags & h2::flag::end_headers) != 0;
      if (script_.answer && whole_request && !goaway_sent) {
        reply += h2::headers(frame->stream, encoder.encode({{":status", "200"}}), true);
      }
      if (script_.goaway_after && !goaway_sent && frames >= *script_.goaway_after) {
        goaway_sent = true;
        reply += h2::goaway(0, script_.goaway_code);
        note(served->index, [&](FloodPeerConnection& c) { c.frames_at_goaway = frames; });
      }
    }
    if (!reply.empty()) co_await asio::async_write(socket, asio::buffer(reply), as_values);
    if (goaway_sent && script_.close_after_goaway) {
      error_code ignored;
      socket.shutdown(tcp::socket::shutdown_send, ignored);
      // Reads on, discarding, so the close stays a FIN and the client's ending is seen.
    }
  }
}

}  // namespace loiter::clients::testing
