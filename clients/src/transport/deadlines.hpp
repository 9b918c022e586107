// One timer per io_context for the deadlines of every connection waiting to read, instead
// of a timer and a parallel group per wait: a held connection then owns one outstanding
// operation (its readiness wait) and one queue entry. When a deadline comes, the queue
// cancels that socket's wait, which completes with operation_aborted: "the time came".
// Single-threaded, like everything on one io_context. Private to loiter::clients.
#pragma once

#include <map>

#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/record.hpp"

namespace loiter::clients {

class Deadlines : public asio::execution_context::service {
 public:
  struct Entry {
    Socket* socket;
    bool* queued;  // cleared when the entry leaves the queue by firing
  };
  using Queue = std::multimap<Clock::time_point, Entry>;

  static asio::execution_context::id id;

  explicit Deadlines(asio::execution_context& context);

  static Deadlines& of(Socket& socket);

  Queue::iterator add(Clock::time_point until, Entry entry);
  // Withdraws an entry that has not fired.
  void remove(Queue::iterator entry);

 private:
  void shutdown() override {}
  void arm();
  void fire();

  Timer timer_;
  Queue queue_;
  Clock::time_point armed_ = Clock::time_point::max();
};

// Cancels `socket`'s outstanding wait at `until` unless destroyed first. Declare it just
// before the co_await of that wait; it lives in the coroutine frame across the wait.
class Deadline {
 public:
  Deadline(Socket& socket, Clock::time_point until);
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

 private:
  Deadlines& deadlines_;
  bool queued_ = true;
  Deadlines::Queue::iterator entry_;
};

}  // namespace loiter::clients
