// The fleet-wide deadline queue: a multimap ordered by time and one timer armed at its
// earliest entry.
#include "transport/deadlines.hpp"

namespace loiter::clients {

asio::execution_context::id Deadlines::id;

Deadlines::Deadlines(asio::execution_context& context)
    : asio::execution_context::service(context),
      timer_(static_cast<asio::io_context&>(context).get_executor()) {}

Deadlines& Deadlines::of(Socket& socket) {
  return asio::use_service<Deadlines>(socket.get_executor().context());
}

Deadlines::Queue::iterator Deadlines::add(Clock::time_point until, Entry entry) {
  const auto it = queue_.emplace(until, entry);
  if (until < armed_) arm();
  return it;
}

void Deadlines::remove(Queue::iterator entry) {
  queue_.erase(entry);
  if (queue_.empty()) {  // nothing left to wait for: io_context::run() may return
    armed_ = Clock::time_point::max();
    timer_.cancel();
  }
  // Otherwise the timer may fire early for the entry gone; fire() then re-arms.
}

void Deadlines::arm() {
  if (queue_.empty()) return;
  armed_ = queue_.begin()->first;
  timer_.expires_at(armed_);  // cancels the wait for an older expiry, if any
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) fire();
  });
}

// Every entry whose time has come leaves the queue and its socket's wait is cancelled.
// Bounded by the queue's size.
void Deadlines::fire() {
  const auto now = Clock::now();
  while (!queue_.empty() && queue_.begin()->first <= now) {
    const Entry entry = queue_.begin()->second;
    queue_.erase(queue_.begin());
    *entry.queued = false;
    boost::system::error_code ignored;
    entry.socket->cancel(ignored);
  }
  armed_ = Clock::time_point::max();
  arm();
}

Deadline::Deadline(Socket& socket, Clock::time_point until)
    : deadlines_(Deadlines::of(socket)),
      entry_(deadlines_.add(until, {.socket = &socket, .queued = &queued_})) {}

Deadline::~Deadline() {
  if (queued_) deadlines_.remove(entry_);
}

}  // namespace loiter::clients
