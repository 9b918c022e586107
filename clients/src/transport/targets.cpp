#include "loiter/clients/transport/targets.hpp"

#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace loiter::clients {

void require_loopback(const tcp::endpoint& target, bool allow_non_loopback) {
  if (allow_non_loopback) return;
  require_loopback(target, std::nullopt);
}

void require_loopback(const tcp::endpoint& target,
                      const std::optional<asio::ip::address>& allowed_remote) {
  if (target.address().is_loopback()) return;
  if (allowed_remote && !allowed_remote->is_unspecified() && *allowed_remote == target.address()) {
    return;
  }
  throw std::invalid_argument(fmt::format(
      "refusing to connect to {}: loiter only targets loopback (127.0.0.0/8, ::1) unless "
      "explicitly allowed",
      target.address().to_string()));
}

asio::ip::address source_for(const tcp::endpoint& target, std::size_t index, unsigned block) {
  const auto& address = target.address();
  if (address.is_v6() && address.is_loopback()) return asio::ip::address_v6::loopback();
  if (!address.is_v4() || !address.is_loopback()) return {};
  const std::size_t host =
      (std::size_t{block} << 16) + 2 + index / kConnectionsPerSource;  // 127.b.0.2 up
  return asio::ip::make_address_v4(
      static_cast<asio::ip::address_v4::uint_type>((127u << 24) | (host & 0xFFFFFFu)));
}

boost::system::error_code bind_source(Socket& socket, const tcp::endpoint& target,
                                      const asio::ip::address& source) {
  return bind_source(socket.native_handle(), target, source);
}

boost::system::error_code bind_source(int fd, const tcp::endpoint& target,
                                      const asio::ip::address& source) {
  boost::system::error_code ec;
  if (source.is_unspecified() || source.is_v4() != target.address().is_v4()) return ec;
  if (source.is_v4()) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
  }
  const tcp::endpoint local(source, 0);
  if (::bind(fd, local.data(), static_cast<socklen_t>(local.size())) != 0) {
    ec.assign(errno, boost::system::system_category());
  }
  return ec;
}

std::size_t raise_fd_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    throw std::runtime_error(fmt::format("cannot read RLIMIT_NOFILE: {}", std::strerror(errno)));
  }
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
      throw std::runtime_error(fmt::format("cannot raise RLIMIT_NOFILE to {}: {}", limit.rlim_max,
                                           std::strerror(errno)));
    }
  }
  return static_cast<std::size_t>(limit.rlim_cur);
}

std::size_t fd_room(std::size_t reserve) {
  const std::size_t limit = raise_fd_limit();
  return limit > reserve ? limit - reserve : 0;
}

void require_fd_room(std::size_t count, std::size_t reserve) {
  const std::size_t limit = raise_fd_limit();
  if (count + reserve <= limit) return;
  throw std::runtime_error(fmt::format(
      "{} connections do not fit in one process: RLIMIT_NOFILE is {} (hard limit), and {} "
      "descriptors are kept for the harness",
      count, limit, reserve));
}

}  // namespace loiter::clients
