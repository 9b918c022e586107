#include "h3/initial/udp_wait.hpp"

#include <boost/asio/buffer.hpp>

namespace loiter::clients::h3init {

UdpWait::UdpWait(Executor executor) : socket_(executor), timer_(executor) {}

UdpWait::~UdpWait() { ++arm_->generation; }

awaitable<UdpWait::Received> UdpWait::receive(std::span<std::uint8_t> buffer,
                                              Clock::time_point until) {
  Received received;
  if (Clock::now() >= until) {
    received.timed_out = true;
    received.at = Clock::now();
    co_return received;
  }
  const std::uint64_t mine = ++arm_->generation;
  arm_->fired = false;
  timer_.expires_at(until);
  timer_.async_wait([arm = arm_, socket = &socket_, mine](boost::system::error_code error) {
    if (error || arm->generation != mine) return;
    arm->fired = true;
    socket->cancel();
  });
  // Awaited into a local (docs/gcc12-coroutines.md), then read.
  auto [error, size] =
      co_await socket_.async_receive(asio::buffer(buffer.data(), buffer.size()), as_values);
  ++arm_->generation;  // whatever the timer does from now on is stale
  timer_.cancel();
  received.at = Clock::now();
  if (error == asio::error::operation_aborted && arm_->fired) {
    received.timed_out = true;
  } else if (error) {
    received.error = error;
  } else {
    received.size = size;
  }
  co_return received;
}

}  // namespace loiter::clients::h3init
