// What the server's UDP socket did during a scenario, from its sampled timeline (a pure
// function: the judge and the report both read it, neither measures). Over QUIC a
// connection the server no longer answers looks the same whether the server forgot it or
// its socket dropped the datagrams that would have kept it: these figures tell them apart.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "loiter/fixtures/probe/sample.hpp"

namespace loiter::suites {

struct UdpFigures {
  unsigned short port = 0;
  std::size_t sockets = 0;          // the most of the server's sockets on the port a sample saw
  std::uint64_t peak_rx_queue = 0;  // bytes: the longest receive queue, summed over them
  // During the scenario, the last sample's less the first's: the datagrams the server's
  // sockets dropped (over the samples that found one; 0 where none did, or where the sum fell
  // with a socket gone), and the machine's RcvbufErrors and InErrors (every UDP socket's).
  std::uint64_t drops = 0;
  std::uint64_t rcvbuf_errors = 0;
  std::uint64_t in_errors = 0;
};

// nullopt when no sample read the UDP sockets (not an HTTP/3 target, or every read failed).
std::optional<UdpFigures> udp_figures(const std::vector<fixtures::TimedSample>& timeline);

}  // namespace loiter::suites
