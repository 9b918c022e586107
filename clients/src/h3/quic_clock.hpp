// What QuicConnection's two halves (quic_connection.cpp, quic_packets.cpp) share: the
// largest datagram, the connection's ngtcp2 handle, and steady time as ngtcp2's nanoseconds.
#pragma once

#include <ngtcp2/ngtcp2.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "loiter/clients/record.hpp"

namespace loiter::clients::h3::quic_clock {

// The largest UDP payload either side sends (the client's max_udp_payload_size transport
// parameter too): so a connection's receive buffer is small, which matters when a process
// holds thousands of them.
inline constexpr std::size_t kMaxDatagram = 1452;
inline constexpr std::uint64_t kMillisecond = NGTCP2_MILLISECONDS;

inline ngtcp2_conn* quic(void* conn) { return static_cast<ngtcp2_conn*>(conn); }

inline std::uint64_t real_now() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
          .count());
}

inline Clock::time_point real_time(std::uint64_t ns) {
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(Duration(ns)));
}

}  // namespace loiter::clients::h3::quic_clock
