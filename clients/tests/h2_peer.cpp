#include "h2_peer.hpp"

#include <boost/asio/write.hpp>

#include "loiter/clients/h2/hpack.hpp"

namespace loiter::clients::testing {

using boost::system::error_code;

std::size_t H2PeerConnection::count(h2::Type type) const {
  std::size_t n = 0;
  for (const auto& f : frames) n += f.is(type);
  return n;
}

const h2::Frame* H2PeerConnection::first(h2::Type type) const {
  for (const auto& f : frames) {
    if (f.is(type)) return &f;
  }
  return nullptr;
}

struct H2Peer::Served {
  Served(tcp::socket s, std::size_t i) : socket(std::move(s)), index(i) {}
  tcp::socket socket;
  std::size_t index;
  Clock::time_point last_answer = Clock::now();
  h2::FrameReader reader;
  h2::Encoder encoder;
  std::string pending;  // preface bytes until whole
  bool preface = false;
  std::int64_t connection_window = 65'535;
  std::int64_t initial_window = 65'535;  // the client's SETTINGS_INITIAL_WINDOW_SIZE
  struct Stream {
    std::uint32_t id;
    std::int64_t window;
    std::size_t left;  // body bytes still to send
  };
  std::vector<Stream> streams;
};

H2Peer::H2Peer(H2PeerScript script) : script_(script) {
  start([this](tcp::socket socket) {
    const std::size_t index = record({.accepted = Clock::now()});
    auto served = std::make_shared<Served>(std::move(socket), index);
    asio::co_spawn(io_, read_loop(served), asio::detached);
    if (script_.close_after) asio::co_spawn(io_, closer(served), asio::detached);
  });
}

H2Peer::~H2Peer() { stop(); }

awaitable<void> H2Peer::read_loop(std::shared_ptr<Served> served) {
  std::array<char, 16 * 1024> buffer;
  for (;;) {  // ends with the connection
    auto [ec, n] = co_await served->socket.async_read_some(asio::buffer(buffer), as_values);
    const std::string_view bytes(buffer.data(), n);
    {
      const std::lock_guard lock(mutex_);
      seen_[served->index].raw.append(bytes);
      if (ec) seen_[served->index].client_ended = true;
    }
    if (ec) co_return;
    std::string_view rest = bytes;
    if (!served->preface) {
      const auto need = h2::kPreface.size() - served->pending.size();
      served->pending.append(rest.substr(0, need));
      rest.remove_prefix(std::min(need, rest.size()));
      if (served->pending.size() < h2::kPreface.size()) continue;
      served->preface = served->pending == h2::kPreface;
      {
        const std::lock_guard lock(mutex_);
        seen_[served->index].preface = served->preface;
      }
      if (!served->preface) continue;
      std::string hello =
          script_.settings ? h2::settings({{h2::setting::max_concurrent_streams, 100}}) : "";
      if (script_.ping) hello += h2::ping(42);
      if (!hello.empty())
        co_await asio::async_write(served->socket, asio::buffer(hello), as_values);
    }
    served->reader.feed(rest);
    while (auto frame = served->reader.next()) {  // bounded by the bytes read
      {
        const std::lock_guard lock(mutex_);
        seen_[served->index].frames.push_back(*frame);
        seen_[served->index].frame_at.push_back(Clock::now());
      }
      co_await on_frame(*served, *frame);
    }
  }
}

awaitable<void> H2Peer::on_frame(Served& served, const h2::Frame& frame) {
  if (frame.is(h2::Type::settings) && !(frame.flags & h2::flag::ack)) {
    for (const auto& [id, value] : h2::parse_settings(frame.payload).value_or(h2::Settings{})) {
      if (id == h2::setting::initial_window_size) served.initial_window = value;
    }
    const auto ack = h2::settings_ack();
    co_await asio::async_write(served.socket, asio::buffer(ack), as_values);
  } else if (frame.is(h2::Type::window_update)) {
    const auto increment = h2::parse_window_update(frame.payload).value_or(0);
    if (frame.stream == 0) served.connection_window += increment;
    for (auto& s : served.streams) {
      if (s.id == frame.stream) s.window += increment;
    }
    co_await send_data(served);
  } else if ((frame.is(h2::Type::headers) || frame.is(h2::Type::continuation)) &&
             (frame.flags & h2::flag::end_headers) && script_.answer) {
    const auto block = served.encoder.encode({{":status", "200"}});
    const auto head = h2::headers(frame.stream, block, script_.body == 0);
    co_await asio::async_write(served.socket, asio::buffer(head), as_values);
    served.streams.push_back({frame.stream, served.initial_window, script_.body});
    co_await send_data(served);
  }
}

// Sends what the windows allow of each stream's body; the last DATA ends its stream.
awaitable<void> H2Peer::send_data(Served& served) {
  for (auto& s : served.streams) {
    const auto allowed =
        std::min({s.window, served.connection_window, static_cast<std::int64_t>(s.left),
                  static_cast<std::int64_t>(h2::kDefaultMaxFrame)});
    if (allowed <= 0) continue;
    const auto n = static_cast<std::size_t>(allowed);
    s.left -= n;
    s.window -= allowed;
    served.connection_window -= allowed;
    const auto bytes = h2::data(s.id, std::string(n, 'x'), s.left == 0);
    co_await asio::async_write(served.socket, asio::buffer(bytes), as_values);
    if (s.left == 0) {
      served.last_answer = Clock::now();
      const std::lock_guard lock(mutex_);
      seen_[served.index].answered_at.push_back(served.last_answer);
    }
  }
}

// Waits until close_after has passed since the last answer, then a GOAWAY and the close.
awaitable<void> H2Peer::closer(std::shared_ptr<Served> served) {
  asio::steady_timer timer(io_);
  for (;;) {  // each turn waits for the latest answer's deadline; ends with the close
    const auto at = served->last_answer + *script_.close_after;
    if (Clock::now() >= at) break;
    timer.expires_at(at);
    co_await timer.async_wait(as_values);
  }
  std::uint32_t last = 0;
  for (const auto& s : served->streams) last = std::max(last, s.id);
  if (script_.goaway) {
    const auto bytes = h2::goaway(last, h2::code::no_error);
    co_await asio::async_write(served->socket, asio::buffer(bytes), as_values);
  }
  error_code ignored;
  served->socket.shutdown(tcp::socket::shutdown_send, ignored);
  served->socket.close(ignored);
}

}  // namespace loiter::clients::testing
