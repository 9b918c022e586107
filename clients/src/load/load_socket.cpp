// A generator connection's socket, beneath its protocol (load_socket.hpp).
#include "load_socket.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/ssl/error.hpp>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients::load_detail {

namespace {

using boost::system::error_code;

error_code errno_code() {
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return asio::error::would_block;
  return {errno, boost::system::system_category()};
}

// When the bytes a recvmsg just read arrived: the kernel's receive timestamp (SO_TIMESTAMPNS,
// CLOCK_REALTIME) moved onto the steady clock; `now` when the socket gave none.
Clock::time_point received_at(msghdr& msg, Clock::time_point now) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec stamp{};
    std::memcpy(&stamp, CMSG_DATA(c), sizeof stamp);
    const auto arrived = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::seconds(stamp.tv_sec) + std::chrono::nanoseconds(stamp.tv_nsec)));
    const auto age = std::chrono::system_clock::now() - arrived;
    return now - std::max(Duration::zero(), std::chrono::duration_cast<Duration>(age));
  }
  return now;
}

OpenStep handshake_step(ssl_st* tls) {
  const TlsResult result = tls_handshake_step(tls);
  if (result.ec == asio::error::would_block) return {};
  if (result.ec) return {Opening::failed, "handshake-failed"};
  return {Opening::open};
}

}  // namespace

int open_load_socket(Schedule& run, bool stamped) {
  const auto& server = run.options.server;
  const int fd =
      ::socket(server.protocol().family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  if (fd < 0) return -1;
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (stamped) ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
  const auto source = source_for(server, run.options.source_offset + run.out.connections_opened,
                                 run.options.source_block);
  epoll_event event{.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data = {.fd = fd}};
  const bool ok = !bind_source(fd, server, source) &&
                  (::connect(fd, server.data(), static_cast<socklen_t>(server.size())) == 0 ||
                   errno == EINPROGRESS) &&
                  ::epoll_ctl(run.epoll_fd, EPOLL_CTL_ADD, fd, &event) == 0;
  if (!ok) {
    ::close(fd);
    return -1;
  }
  return fd;
}

OpenStep open_step(const TlsClient& client, int fd, TlsSession& tls,
                   std::span<const unsigned char> alpn) {
  if (tls) return handshake_step(tls.get());
  int error = 0;
  socklen_t size = sizeof error;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) error = errno;
  if (error != 0) return {Opening::failed, "connect-failed"};
  sockaddr_storage peer{};
  socklen_t peer_size = sizeof peer;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0) {
    return {};  // still connecting: this edge was not its end
  }
  if (!client) return {Opening::open};
  tls = new_tls_session(*client, fd, nullptr);
  // Only `alpn` is offered, whatever the context's list: a server without it fails the
  // handshake.
  if (!tls || (!alpn.empty() && SSL_set_alpn_protos(tls.get(), alpn.data(),
                                                    static_cast<unsigned>(alpn.size())) != 0)) {
    return {Opening::failed, "handshake-failed"};
  }
  return handshake_step(tls.get());
}

SocketIo read_some(int fd, ssl_st* tls, char* data, std::size_t size, Clock::time_point& at) {
  at = Clock::now();
  if (tls != nullptr) {
    const TlsResult result = tls_read(tls, data, size);
    return {result.bytes, result.ec};
  }
  iovec iov{.iov_base = data, .iov_len = size};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t n = ::recvmsg(fd, &msg, 0);
  if (n > 0) {
    at = received_at(msg, at);
    return {static_cast<std::size_t>(n), {}};
  }
  if (n == 0) return {0, asio::error::eof};
  return {0, errno_code()};
}

SocketIo send_some(int fd, ssl_st* tls, const char* data, std::size_t size) {
  if (tls != nullptr) {
    const TlsResult result = tls_write(tls, data, size);
    return {result.bytes, result.ec};
  }
  const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
  if (n < 0) return {0, errno_code()};
  return {static_cast<std::size_t>(n), {}};
}

const char* io_error_kind(const error_code& ec) {
  if (ec == asio::error::eof) return "closed";
  if (ec == asio::error::connection_reset || ec == asio::error::broken_pipe) return "reset";
  if (ec == asio::error::connection_refused) return "refused";
  if (ec.category() == asio::error::get_ssl_category()) return "tls";
  return "other";
}

}  // namespace loiter::clients::load_detail
