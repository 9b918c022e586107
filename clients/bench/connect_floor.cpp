// loiter-connect-floor: the kernel's floor under the opening rate. Opens N loopback
// connections from one thread with bare system calls, no event loop, no record, no pacing,
// timing each call, and keeps them open until all are made; so its rate is what the kernel
// lets one thread open, and its per-call times say where an opening's time goes (socket(),
// the source address's bind(), connect(), which on loopback runs both ends' handshake in
// the caller, and the poll() that finds it done). Each connection makes loiter's calls:
//
//   socket(SOCK_NONBLOCK) | setsockopt(TCP_NODELAY) | setsockopt(IP_BIND_ADDRESS_NO_PORT) +
//   bind(127.0.0.2+) | connect() (EINPROGRESS) | poll(POLLOUT, 0) | getsockname()
//
// `--bare` makes only socket() and connect() (the kernel chooses the source address);
// `--epoll` puts each socket in an epoll set before its connect, as Asio's reactor does.
//
//   loiter-connect-floor --connect 127.0.0.1:PORT --count 10000 [--bare] [--epoll]
//
// Loopback targets only. Needs count + a few descriptors of RLIMIT_NOFILE.
#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "loiter/clients/transport/targets.hpp"

namespace {

using Clock = std::chrono::steady_clock;

enum Step { kSocket, kRegister, kNoDelay, kSource, kConnect, kPoll, kName, kSteps };
constexpr std::array<const char*, kSteps> kStepNames{"socket()",
                                                     "epoll_ctl(ADD)",
                                                     "setsockopt(TCP_NODELAY)",
                                                     "source: setsockopt + bind()",
                                                     "connect()",
                                                     "poll(POLLOUT, 0)",
                                                     "getsockname()"};

struct Totals {
  std::array<double, kSteps> seconds{};
  std::size_t connected_at_return = 0;  // poll() found the handshake done already
  std::size_t failed = 0;
};

sockaddr_in v4(const std::string& host, unsigned short port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
    throw std::invalid_argument("--connect wants IPv4 HOST:PORT");
  }
  return a;
}

// One connection, each call timed into `t`; returns its fd (or -1).
int open_one(const sockaddr_in& target, std::size_t index, bool bare, int epoll_fd, Totals& t) {
  auto lap = Clock::now();
  const auto step = [&](Step s) {
    const auto now = Clock::now();
    t.seconds[s] += std::chrono::duration<double>(now - lap).count();
    lap = now;
  };
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  step(kSocket);
  if (fd < 0) return -1;
  if (epoll_fd >= 0) {  // as Asio registers a socket when it opens it
    epoll_event event{};
    event.events = EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLPRI | EPOLLET;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
    step(kRegister);
  }
  const int one = 1;
  if (!bare) {
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    step(kNoDelay);
    sockaddr_in source{};
    source.sin_family = AF_INET;
    const auto host =
        static_cast<std::uint32_t>(2 + index / loiter::clients::kConnectionsPerSource);
    source.sin_addr.s_addr = htonl((127u << 24) | host);
    ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    ::bind(fd, reinterpret_cast<const sockaddr*>(&source), sizeof source);
    step(kSource);
  }
  const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&target), sizeof target);
  step(kConnect);
  if (rc != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  pollfd p{.fd = fd, .events = POLLOUT, .revents = 0};
  if (::poll(&p, 1, 0) == 1 && (p.revents & POLLOUT)) ++t.connected_at_return;
  step(kPoll);
  if (!bare) {
    sockaddr_in local{};
    socklen_t length = sizeof local;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length);
    step(kName);
  }
  return fd;
}

}  // namespace

int main(int argc, char** argv) {
  std::string connect;
  std::size_t count = 10000;
  bool bare = false;
  bool registered = false;
  CLI::App app{"Opens N loopback connections with bare system calls; prints the kernel's floor"};
  app.add_option("--connect", connect, "HOST:PORT (IPv4 loopback)")->required();
  app.add_option("--count", count, "connections");
  app.add_flag("--bare", bare, "socket() and connect() only; the kernel picks the source");
  app.add_flag("--epoll", registered,
               "each socket in an epoll set (edge-triggered, as Asio's) before its connect");
  CLI11_PARSE(app, argc, argv);
  try {
    const auto colon = connect.rfind(':');
    const auto target = v4(connect.substr(0, colon),
                           static_cast<unsigned short>(std::stoul(connect.substr(colon + 1))));
    if ((ntohl(target.sin_addr.s_addr) >> 24) != 127) throw std::invalid_argument("loopback only");
    loiter::clients::require_fd_room(count);
    Totals t;
    std::vector<int> fds;
    fds.reserve(count);
    const int epoll_fd = registered ? ::epoll_create1(EPOLL_CLOEXEC) : -1;
    const auto start = Clock::now();
    for (std::size_t i = 0; i < count; ++i) {  // bounded by count
      const int fd = open_one(target, i, bare, epoll_fd, t);
      if (fd < 0)
        ++t.failed;
      else
        fds.push_back(fd);
    }
    const double took = std::chrono::duration<double>(Clock::now() - start).count();
    for (const int fd : fds) ::close(fd);
    if (epoll_fd >= 0) ::close(epoll_fd);
    fmt::print("loiter-connect-floor: {} connections{}{}, one thread, bare system calls\n", count,
               bare ? " (socket + connect only)" : "", registered ? ", each in an epoll set" : "");
    fmt::print("opened        {} in {:.3f} s: {:.0f} conn/s; failed {}\n", fds.size(), took,
               static_cast<double>(fds.size()) / took, t.failed);
    fmt::print("established when connect() returned (poll): {}\n", t.connected_at_return);
    for (int s = 0; s < kSteps; ++s) {
      if (t.seconds[s] == 0) continue;
      fmt::print("  {:<30} {:6.2f} us a connection ({:4.1f} %)\n", kStepNames[s],
                 1e6 * t.seconds[s] / static_cast<double>(count), 100 * t.seconds[s] / took);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loiter-connect-floor: %s\n", e.what());
    return 1;
  }
}
