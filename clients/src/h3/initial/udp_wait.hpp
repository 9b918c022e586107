// A connected UDP socket whose receive ends at a deadline: the hand-made QUIC clients wait
// for the server's next datagram or for their own next step (a probe, the end of a quiet
// period, patience), whichever comes first. The TCP kinds' Deadlines queue holds TCP
// sockets only; this is one timer per socket, which a fleet of a few hundred half-open
// QUIC connections affords. Private to loiter::clients_h3_initial.
#pragma once

#include <boost/asio/basic_datagram_socket.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/system/error_code.hpp>
#include <cstdint>
#include <memory>
#include <span>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"

namespace loiter::clients::h3init {

using udp = asio::ip::udp;
using UdpSocket = asio::basic_datagram_socket<udp, Executor>;

class UdpWait {
 public:
  struct Received {
    std::size_t size = 0;
    bool timed_out = false;           // `until` came first
    boost::system::error_code error;  // a socket error (ECONNREFUSED from an ICMP, ...)
    Clock::time_point at{};           // when it completed
  };

  explicit UdpWait(Executor executor);
  ~UdpWait();
  UdpWait(const UdpWait&) = delete;
  UdpWait& operator=(const UdpWait&) = delete;

  UdpSocket& socket() { return socket_; }

  // One datagram into `buffer` (truncated to its size), or timed_out once `until` comes.
  awaitable<Received> receive(std::span<std::uint8_t> buffer, Clock::time_point until);

 private:
  // Shared with the timer's handler, which may run after a receive completed (its expiry
  // already queued) or after this object is gone: it cancels the socket only while the
  // generation it was armed for is current, so a stale expiry never cuts a later receive.
  struct Arm {
    std::uint64_t generation = 0;
    bool fired = false;
  };

  UdpSocket socket_;
  Timer timer_;
  std::shared_ptr<Arm> arm_ = std::make_shared<Arm>();
};

}  // namespace loiter::clients::h3init
