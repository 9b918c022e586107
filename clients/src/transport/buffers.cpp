#include "loiter/clients/transport/buffers.hpp"

#include <fmt/format.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace loiter::clients {

namespace {

std::size_t send_max_from(const std::filesystem::path& tcp_wmem) {
  std::ifstream in(tcp_wmem);
  std::size_t low = 0, initial = 0, most = 0;
  if (!(in >> low >> initial >> most) || most == 0) {
    throw std::runtime_error(fmt::format("cannot read three sizes from {}", tcp_wmem.string()));
  }
  return most;
}

std::size_t receive_buffer_for(int asked) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(fmt::format("socket(): {}", std::strerror(errno)));
  int size = 0;
  socklen_t length = sizeof size;
  const bool set = asked <= 0 || ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &asked, sizeof asked) == 0;
  const bool got = set && ::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, &length) == 0;
  const int error = errno;
  ::close(fd);
  if (!got) throw std::runtime_error(fmt::format("SO_RCVBUF: {}", std::strerror(error)));
  return static_cast<std::size_t>(size);
}

}  // namespace

KernelBuffers kernel_buffers(int receive_buffer, const std::filesystem::path& tcp_wmem) {
  return {.send_max = send_max_from(tcp_wmem), .receive = receive_buffer_for(receive_buffer)};
}

std::size_t stalling_response_bytes(const KernelBuffers& buffers) {
  return kStallMargin * buffers.total();
}

}  // namespace loiter::clients
