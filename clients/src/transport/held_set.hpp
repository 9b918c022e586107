// The io_context's set of parked held connections: a private epoll set of their sockets,
// itself one descriptor that Asio waits on, and a binary heap of their deadlines under one
// timer. A socket in Asio's reactor costs its per-descriptor state (168 B) and, while a
// readiness wait is outstanding, that operation (~114 B) and a deadline-queue node (56 B);
// parked here it costs an epoll entry in the kernel and 8 bytes of heap. A parked
// connection's socket is released from Asio (its fd kept in the HeldConnection) and
// assigned again when it wakes: readable (data, EOF or an error) or its time come.
// Single-threaded, like everything on one io_context. While nothing is parked nothing is
// outstanding, so io_context::run() may return. Destroying the io_context closes and
// frees what is still parked. Private to loiter::clients.
#pragma once

#include <boost/asio/posix/stream_descriptor.hpp>
#include <memory>
#include <vector>

#include "loiter/clients/transport/asio.hpp"
#include "transport/held.hpp"

namespace loiter::clients {

class HeldSet : public asio::execution_context::service {
 public:
  static asio::execution_context::id id;

  explicit HeldSet(asio::execution_context& context);
  ~HeldSet() override;

  static HeldSet& of(Socket& socket);

  // Parks `held` (its socket open, not readable-buffered, its time not come) until its
  // socket is readable or its time comes; then HeldConnection::woke() gets it back.
  // Throws std::system_error if the kernel refuses the socket a place in the set.
  void park(std::unique_ptr<HeldConnection> held);

 private:
  using Descriptor = asio::posix::basic_stream_descriptor<Executor>;
  static constexpr int kBatch = 64;  // readiness events taken per turn

  void shutdown() override;
  void watch();
  void take_ready();
  void arm();
  void expire();
  // Takes `held` out of the set and gives its socket back to Asio.
  std::unique_ptr<HeldConnection> unpark(HeldConnection* held);
  void settle_idle();

  // The deadline heap (earliest first), each entry's slot_ kept up to date.
  void heap_push(HeldConnection* held);
  void heap_remove(std::uint32_t slot);
  void sift_up(std::uint32_t slot);
  void sift_down(std::uint32_t slot);
  void place(std::uint32_t slot, HeldConnection* held);

  int epoll_fd_ = -1;
  Descriptor poller_;  // owns epoll_fd_
  Timer timer_;
  std::vector<HeldConnection*> heap_;  // owned: every parked connection, once
  Clock::time_point armed_ = Clock::time_point::max();
  bool watching_ = false;  // a readiness wait on poller_, or a take_ready() turn, is pending
};

}  // namespace loiter::clients
