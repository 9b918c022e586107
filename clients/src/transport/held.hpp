// A held connection: what Connection::hold_until_closed() and hold_until() keep while a
// connection waits for its server or its time, outside any coroutine frame. While it waits
// it is parked in the io_context's HeldSet (held_set.hpp): its socket is out of Asio's
// reactor, so it costs this object (the connection, its time, a continuation pointer) and a
// slot in the set's deadline heap, besides its record. Private to loiter::clients.
#pragma once

#include <cstdint>
#include <memory>

#include "loiter/clients/transport/connection.hpp"

namespace loiter::clients {

class HeldConnection {
 public:
  HeldConnection(Connection connection, Clock::time_point until,
                 Connection::Continuation then = {});

  // Waits until the socket is readable or `until` comes (parked in the HeldSet), unless
  // either is so already.
  static void wait(std::unique_ptr<HeldConnection> self);
  // The wait is over: reads what arrived; the server's ending is recorded; readable without
  // an ending waits again; the time come ends it as `open` or hands it to the continuation.
  static void woke(std::unique_ptr<HeldConnection> self, bool readable);

 private:
  friend class HeldSet;

  Connection connection_;
  Clock::time_point until_;
  std::unique_ptr<Connection::Continuation> then_;  // null: the time come ends it as `open`
  int fd_ = -1;             // while parked: the socket, taken out of Asio's reactor
  std::uint32_t slot_ = 0;  // while parked: its index in the set's deadline heap
};

}  // namespace loiter::clients
