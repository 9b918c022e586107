// The io_context's private epoll set of parked held connections and their deadline heap.
#include "transport/held_set.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <system_error>
#include <utility>

namespace loiter::clients {

namespace {

int new_epoll_set() {
  const int fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0)
    throw std::system_error(errno, std::generic_category(), "held connections: epoll_create1");
  return fd;
}

// The socket's protocol, for giving it back to Asio (which forgets it on release).
tcp protocol_of(int fd) {
  int domain = AF_INET;
  socklen_t length = sizeof domain;
  ::getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length);
  return domain == AF_INET6 ? tcp::v6() : tcp::v4();
}

}  // namespace

asio::execution_context::id HeldSet::id;

HeldSet::HeldSet(asio::execution_context& context)
    : asio::execution_context::service(context),
      epoll_fd_(new_epoll_set()),
      poller_(static_cast<asio::io_context&>(context).get_executor(), epoll_fd_),
      timer_(static_cast<asio::io_context&>(context).get_executor()) {}

HeldSet::~HeldSet() { shutdown(); }

HeldSet& HeldSet::of(Socket& socket) {
  return asio::use_service<HeldSet>(socket.get_executor().context());
}

// The io_context goes: what is still parked is closed and freed (records stay as they are).
void HeldSet::shutdown() {
  for (HeldConnection* held : std::exchange(heap_, {})) {
    ::close(held->fd_);
    delete held;
  }
}

void HeldSet::park(std::unique_ptr<HeldConnection> held) {
  Socket& socket = held->connection_.socket_;
  const int fd = socket.native_handle();
  epoll_event event{};
  event.events = EPOLLIN;  // EPOLLERR and EPOLLHUP always: an EOF, a reset, data
  event.data.ptr = held.get();
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
    throw std::system_error(errno, std::generic_category(),
                            "holding a connection: epoll_ctl(ADD) into the held set");
  }
  boost::system::error_code ec;
  held->fd_ = socket.release(ec);  // out of Asio's reactor; its state goes back to Asio's pool
  if (ec) {
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    throw std::system_error(ec, "holding a connection: releasing its socket from Asio");
  }
  const auto until = held->until_;
  heap_push(held.release());
  if (until < armed_) arm();
  watch();
}

std::unique_ptr<HeldConnection> HeldSet::unpark(HeldConnection* held) {
  std::unique_ptr<HeldConnection> owned(held);
  heap_remove(held->slot_);
  const int fd = std::exchange(held->fd_, -1);
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  boost::system::error_code ec;
  Socket& socket = held->connection_.socket_;
  socket.assign(protocol_of(fd), fd, ec);
  if (ec) {
    ::close(fd);
  } else {
    socket.non_blocking(true, ec);  // Asio's own flag: its reads must never block
  }
  if (heap_.empty()) settle_idle();
  if (ec) throw std::system_error(ec, "holding a connection: giving its socket back to Asio");
  return owned;
}

// Nothing parked: nothing may stay outstanding, or io_context::run() would never return.
void HeldSet::settle_idle() {
  armed_ = Clock::time_point::max();
  timer_.cancel();
  boost::system::error_code ignored;
  poller_.cancel(ignored);
}

void HeldSet::watch() {
  if (watching_ || heap_.empty()) return;
  watching_ = true;
  poller_.async_wait(Descriptor::wait_read, [this](const boost::system::error_code& ec) {
    watching_ = false;
    if (ec && ec != asio::error::operation_aborted) {
      throw std::system_error(ec, "held connections: waiting on their epoll set");
    }
    // Cancelled while idle, a connection parked since may have become readable before this
    // wait was there to see the edge: look, rather than wait for the next one.
    if (!heap_.empty()) take_ready();
  });
}

// One batch of readable sockets, each woken in turn. A full batch may leave more: the next
// turn is posted (other handlers run in between) rather than awaited, as Asio waits on the
// set's descriptor edge-triggered. Bounded by kBatch.
void HeldSet::take_ready() {
  std::array<epoll_event, kBatch> events;
  watching_ = true;  // connections parked meanwhile need no wait of their own
  const int n = ::epoll_wait(epoll_fd_, events.data(), kBatch, 0);
  for (int i = 0; i < n; ++i) {
    HeldConnection::woke(unpark(static_cast<HeldConnection*>(events[i].data.ptr)), true);
  }
  watching_ = false;
  if (n == kBatch) {
    watching_ = true;
    asio::post(poller_.get_executor(), [this] {
      watching_ = false;
      take_ready();
    });
    return;
  }
  watch();
}

void HeldSet::arm() {
  if (heap_.empty()) return;
  armed_ = heap_.front()->until_;
  timer_.expires_at(armed_);  // cancels the wait for a later expiry, if any
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) expire();
  });
}

// Every parked connection whose time has come wakes, earliest first. Bounded by the heap's
// size: one woken now waits again only with a time still to come.
void HeldSet::expire() {
  const auto now = Clock::now();
  while (!heap_.empty() && heap_.front()->until_ <= now) {
    HeldConnection::woke(unpark(heap_.front()), false);
  }
  armed_ = Clock::time_point::max();
  arm();
}

// The heap: heap_[0] is the earliest; each entry's slot_ is its index.

void HeldSet::place(std::uint32_t slot, HeldConnection* held) {
  heap_[slot] = held;
  held->slot_ = slot;
}

void HeldSet::heap_push(HeldConnection* held) {
  heap_.push_back(held);
  const auto slot = static_cast<std::uint32_t>(heap_.size() - 1);
  place(slot, held);
  sift_up(slot);
}

void HeldSet::heap_remove(std::uint32_t slot) {
  HeldConnection* last = heap_.back();
  heap_.pop_back();
  if (slot == heap_.size()) return;  // it was the last
  place(slot, last);
  sift_up(slot);
  sift_down(last->slot_);
}

// Bounded by the heap's depth.
void HeldSet::sift_up(std::uint32_t slot) {
  HeldConnection* held = heap_[slot];
  while (slot > 0) {
    const std::uint32_t parent = (slot - 1) / 2;
    if (!(held->until_ < heap_[parent]->until_)) break;
    place(slot, heap_[parent]);
    slot = parent;
  }
  place(slot, held);
}

// Bounded by the heap's depth.
void HeldSet::sift_down(std::uint32_t slot) {
  HeldConnection* held = heap_[slot];
  const auto size = heap_.size();
  for (;;) {
    std::size_t child = 2 * std::size_t{slot} + 1;
    if (child >= size) break;
    if (child + 1 < size && heap_[child + 1]->until_ < heap_[child]->until_) ++child;
    if (!(heap_[child]->until_ < held->until_)) break;
    place(slot, heap_[child]);
    slot = static_cast<std::uint32_t>(child);
  }
  place(slot, held);
}

}  // namespace loiter::clients
