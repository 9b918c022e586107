// The HTTP/2 load peer (see h2_load_peer.hpp): one thread, poll() over the listener and its
// connections, one nghttp2 server session per connection, and the held answers in due order.
#include "h2_load_peer.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tls_peer.hpp"

namespace loiter::clients::testing {

namespace {

constexpr auto kPeerPoll = std::chrono::milliseconds(5);  // the loop's longest sleep

// Chooses h2 when offered; no ALPN otherwise.
int h2_peer_select_alpn(SSL*, const unsigned char** out, unsigned char* out_size,
                        const unsigned char* in, unsigned in_size, void*) {
  static const unsigned char kH2[] = "\x02h2";
  auto** chosen = const_cast<unsigned char**>(out);
  const int found = SSL_select_next_proto(chosen, out_size, kH2, sizeof kH2 - 1, in, in_size);
  return found == OPENSSL_NPN_NEGOTIATED ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK;
}

struct HeldAnswer {
  Clock::time_point due;
  std::int32_t stream = 0;
};

}  // namespace

struct H2LoadPeer::Conn {
  H2LoadPeer* peer = nullptr;
  int fd = -1;
  SSL* ssl = nullptr;  // over TLS
  nghttp2_session* session = nullptr;
  std::size_t open = 0, requests = 0;
  std::int32_t goaway_at = 0;  // the last stream named by its GOAWAY; 0: none sent
  std::vector<HeldAnswer> held;
  ~Conn() {
    if (session != nullptr) nghttp2_session_del(session);
    if (ssl != nullptr) SSL_free(ssl);
    if (fd >= 0) ::close(fd);
  }
};

struct H2LoadPeerCallbacks {
  static ssize_t body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                      std::uint32_t* flags, nghttp2_data_source*, void*) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (length < 2) return 0;
    std::memcpy(buf, "ok", 2);
    return 2;
  }

  static void answer(H2LoadPeer::Conn& conn, std::int32_t stream) {
    static const nghttp2_nv status[] = {
        {const_cast<std::uint8_t*>(reinterpret_cast<const std::uint8_t*>(":status")),
         const_cast<std::uint8_t*>(reinterpret_cast<const std::uint8_t*>("200")), 7, 3,
         NGHTTP2_NV_FLAG_NONE}};
    nghttp2_data_provider provider{.source = {.ptr = nullptr}, .read_callback = body};
    if (nghttp2_submit_response(conn.session, stream, status, 1, &provider) == 0) {
      ++conn.peer->answered_;
    }
  }

  // A whole request: reset, held, or answered now; then the GOAWAY if it is the one.
  static void on_request(H2LoadPeer::Conn& conn, std::int32_t stream) {
    H2LoadPeer& peer = *conn.peer;
    if (conn.goaway_at != 0 && stream > conn.goaway_at) {
      ++peer.past_goaway_;  // ignored: the client sends it again elsewhere
      return;
    }
    const std::uint64_t n = peer.requests_++;
    ++conn.requests;
    peer.most_requests_.store(std::max(peer.most_requests_.load(), conn.requests));
    if (const std::uint32_t code = peer.script_.reset(n); code != 0) {
      nghttp2_submit_rst_stream(conn.session, NGHTTP2_FLAG_NONE, stream, code);
    } else if (peer.script_.hold.count() > 0) {
      conn.held.push_back({Clock::now() + peer.script_.hold, stream});
    } else {
      answer(conn, stream);
    }
    if (peer.script_.goaway_after != 0 && conn.requests == peer.script_.goaway_after) {
      conn.goaway_at = stream;
      nghttp2_submit_goaway(conn.session, NGHTTP2_FLAG_NONE, stream, NGHTTP2_NO_ERROR, nullptr, 0);
    }
  }

  static int begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& conn = *static_cast<H2LoadPeer::Conn*>(user_data);
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    ++conn.open;
    auto& most = conn.peer->most_open_;
    most.store(std::max(most.load(), conn.open));
    return 0;
  }

  static int frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& conn = *static_cast<H2LoadPeer::Conn*>(user_data);
    if (frame->hd.type == NGHTTP2_RST_STREAM) {
      {
        std::lock_guard lock(conn.peer->mutex_);
        ++conn.peer->client_resets_[frame->rst_stream.error_code];
      }
      conn.peer->reset_seen_.notify_all();
      return 0;
    }
    const bool request = frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA;
    if (request && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
      on_request(conn, frame->hd.stream_id);
    }
    return 0;
  }

  static int data_chunk(nghttp2_session*, std::uint8_t, std::int32_t, const std::uint8_t*,
                        std::size_t size, void* user_data) {
    static_cast<H2LoadPeer::Conn*>(user_data)->peer->body_bytes_ += size;
    return 0;
  }

  static int stream_close(nghttp2_session*, std::int32_t, std::uint32_t, void* user_data) {
    auto& conn = *static_cast<H2LoadPeer::Conn*>(user_data);
    if (conn.open > 0) --conn.open;
    return 0;
  }

  // Sends what the session has; false once the connection is done with.
  static bool flush(H2LoadPeer::Conn& conn) {
    for (int round = 0; round < 1024; ++round) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(conn.session, &data);
      if (n < 0) return false;
      if (n == 0) return true;
      // Loopback and small frames: a blocking send of each piece keeps the peer simple.
      for (ssize_t sent = 0; sent < n;) {
        const auto size = static_cast<std::size_t>(n - sent);
        const ssize_t k = conn.ssl != nullptr
                              ? SSL_write(conn.ssl, data + sent, static_cast<int>(size))
                              : ::send(conn.fd, data + sent, size, MSG_NOSIGNAL);
        if (k <= 0) return false;
        sent += k;
      }
    }
    return true;
  }
};

H2LoadPeer::H2LoadPeer(H2LoadPeerScript script) : script_(std::move(script)) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::listen(listener_, 128) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    throw std::runtime_error("h2 load peer: cannot listen");
  }
  endpoint_ = tcp::endpoint(asio::ip::address_v4::loopback(), ntohs(address.sin_port));
  if (script_.tls) {
    // OpenSSL writes with write(): a client's close must not end the test binary (SIGPIPE).
    std::signal(SIGPIPE, SIG_IGN);
    tls_.emplace(asio::ssl::context::tls_server);
    use_throwaway_certificate(*tls_);
    SSL_CTX_set_alpn_select_cb(tls_->native_handle(), h2_peer_select_alpn, nullptr);
  }
  thread_ = std::thread([this] { serve(); });
}

H2LoadPeer::~H2LoadPeer() {
  stop_ = true;
  thread_.join();
  ::close(listener_);
}

std::map<std::uint32_t, std::uint64_t> H2LoadPeer::client_resets() const {
  std::lock_guard lock(mutex_);
  return client_resets_;
}

std::uint64_t H2LoadPeer::wait_client_resets(std::uint32_t code, std::uint64_t count,
                                             std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(mutex_);
  const auto seen = [&] {
    const auto found = client_resets_.find(code);
    return found == client_resets_.end() ? std::uint64_t{0} : found->second;
  };
  reset_seen_.wait_until(lock, deadline, [&] { return seen() >= count; });
  return seen();
}

std::uint64_t H2LoadPeer::wait_accepted(std::uint64_t count,
                                        std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(mutex_);
  accepted_seen_.wait_until(lock, deadline, [&] { return accepted_.load() >= count; });
  return accepted_.load();
}

void H2LoadPeer::serve() {
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_session_callbacks_new(&callbacks);
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks,
                                                          H2LoadPeerCallbacks::begin_headers);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, H2LoadPeerCallbacks::frame_recv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks,
                                                            H2LoadPeerCallbacks::data_chunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks,
                                                         H2LoadPeerCallbacks::stream_close);
  std::vector<std::unique_ptr<Conn>> conns;
  while (!stop_) {  // bounded by the destructor's stop
    std::vector<pollfd> fds{{.fd = listener_, .events = POLLIN, .revents = 0}};
    for (auto& conn : conns) fds.push_back({.fd = conn->fd, .events = POLLIN, .revents = 0});
    const std::size_t polled = conns.size();  // one accepted below is looked at next turn
    ::poll(fds.data(), fds.size(), static_cast<int>(kPeerPoll.count()));
    if (fds[0].revents & POLLIN) {
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) {
        {
          std::lock_guard lock(mutex_);  // so a waiter cannot miss the notification
          ++accepted_;
        }
        accepted_seen_.notify_all();
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        auto conn = std::make_unique<Conn>();
        conn->peer = this;
        conn->fd = fd;
        if (tls_) {  // a blocking handshake: the client under test makes its own at once
          conn->ssl = SSL_new(tls_->native_handle());
          SSL_set_fd(conn->ssl, fd);
          if (SSL_accept(conn->ssl) != 1) continue;  // conn's destructor closes it
        }
        nghttp2_session_server_new(&conn->session, callbacks, conn.get());
        std::vector<nghttp2_settings_entry> settings;
        if (script_.max_concurrent_streams) {
          settings.push_back(
              {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, *script_.max_concurrent_streams});
        }
        nghttp2_submit_settings(conn->session, NGHTTP2_FLAG_NONE, settings.data(), settings.size());
        H2LoadPeerCallbacks::flush(*conn);
        conns.push_back(std::move(conn));
      }
    }
    for (std::size_t i = 0; i < polled; ++i) {
      Conn& conn = *conns[i];
      bool alive = true;
      if (fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR)) {
        std::uint8_t buffer[16384];
        const ssize_t n = conn.ssl != nullptr ? SSL_read(conn.ssl, buffer, sizeof buffer)
                                              : ::recv(conn.fd, buffer, sizeof buffer, 0);
        alive = n > 0 &&
                nghttp2_session_mem_recv(conn.session, buffer, static_cast<std::size_t>(n)) >= 0;
      }
      const auto now = Clock::now();
      auto& held = conn.held;
      for (std::size_t k = 0; k < held.size();) {  // bounded by what is held
        if (held[k].due > now) {
          ++k;
          continue;
        }
        H2LoadPeerCallbacks::answer(conn, held[k].stream);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
      }
      if (alive) alive = H2LoadPeerCallbacks::flush(conn);
      if (!alive) conns[i].reset();
    }
    std::erase(conns, nullptr);
  }
  conns.clear();
  nghttp2_session_callbacks_del(callbacks);
}

}  // namespace loiter::clients::testing
