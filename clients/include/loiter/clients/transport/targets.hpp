// Where clients may connect from and to. Traffic goes to loopback only unless the user
// explicitly allows otherwise; sources are spread over 127.0.0.2, .3, … so that the
// ephemeral ports of one source address never run out.
#pragma once

#include <cstddef>
#include <optional>

#include "loiter/clients/transport/asio.hpp"

namespace loiter::clients {

// Throws std::invalid_argument naming the address unless it is in 127.0.0.0/8 or ::1,
// or `allow_non_loopback` is set.
void require_loopback(const tcp::endpoint& target, bool allow_non_loopback = false);
// The same, also allowing `allowed_remote`: the one address off loopback the user named
// (loiter check --allow-remote HOST).
void require_loopback(const tcp::endpoint& target,
                      const std::optional<asio::ip::address>& allowed_remote);

// The highest source block: sources start at 127.<block>.0.2 (source_for).
inline constexpr unsigned kMaxSourceBlock = 255;

// Connections per source address before the next one is used: well below the 28,232
// ephemeral ports one source address has toward one destination.
inline constexpr std::size_t kConnectionsPerSource = 16'000;

// The source address for connection `index` toward `target`: 127.<block>.0.2 + index / 16,000
// for an IPv4 loopback target, ::1 for IPv6, unspecified (the kernel chooses) otherwise. Each
// shard of a run split over local processes (loiter check --shard k/K) has a block of its
// own, so it connects from addresses of its own, as it would from a machine of its own.
// `block` is at most kMaxSourceBlock (require_spawnable checks a fleet's).
asio::ip::address source_for(const tcp::endpoint& target, std::size_t index, unsigned block = 0);

// Binds an open, unconnected socket to `source` (port 0) when it is an address of the
// target's family, as source_for gives it; does nothing for an unspecified one. An IPv4
// source leaves the port to connect() (IP_BIND_ADDRESS_NO_PORT), so the 4-tuple, not the
// source port alone, must be unique: each source address has the whole ephemeral range per
// target. Returns the bind's error.
boost::system::error_code bind_source(Socket& socket, const tcp::endpoint& target,
                                      const asio::ip::address& source);
// The same on a plain descriptor (the load generator's).
boost::system::error_code bind_source(int fd, const tcp::endpoint& target,
                                      const asio::ip::address& source);

// Raises RLIMIT_NOFILE to its hard limit; returns the resulting soft limit.
std::size_t raise_fd_limit();

// Descriptors kept for the harness itself (pipes, the probe, logs) beside the connections.
inline constexpr std::size_t kFdReserve = 64;

// How many connections fit in this process: RLIMIT_NOFILE (raised to its hard limit) less
// `reserve`.
std::size_t fd_room(std::size_t reserve = kFdReserve);

// Throws std::runtime_error naming the limit when `count` connections (plus `reserve` other
// descriptors) cannot fit in this process's RLIMIT_NOFILE.
void require_fd_room(std::size_t count, std::size_t reserve = kFdReserve);

}  // namespace loiter::clients
