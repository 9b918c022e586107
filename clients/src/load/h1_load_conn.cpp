// The HTTP/1.1 exchange's connections: what it does once the engine has opened one (or
// failed to), the client's FIN and RST, and setting the kept-alive connection aside while a
// churn request uses a connection of its own.
#include <sys/socket.h>
#include <unistd.h>

#include "h1_load_run.hpp"

namespace loiter::clients::load_detail {

namespace {

void swap_connections(H1Conn& conn) {
  std::swap(conn.fd, conn.parked_fd);
  std::swap(conn.tls, conn.parked_tls);
  std::swap(conn.served, conn.parked_served);
  conn.state = conn.fd >= 0 ? LinkState::open : LinkState::closed;  // a parked one was open
}

}  // namespace

void close_conn(H1Run& run, H1Conn& conn) {
  run.close_link(conn);
  conn.filled = 0;
  conn.stirred = false;
  conn.phase = H1Phase::closed;
}

void reset_conn(H1Run& run, H1Conn& conn) {
  const linger now{.l_onoff = 1, .l_linger = 0};
  if (conn.fd >= 0) ::setsockopt(conn.fd, SOL_SOCKET, SO_LINGER, &now, sizeof now);
  close_conn(run, conn);
}

// One with unread bytes (extra after its last answer), or still being opened, is closed
// instead of parked.
void park(H1Run& run, H1Conn& conn) {
  if (conn.parked) return;
  if (conn.filled > 0 || conn.phase != H1Phase::idle) close_conn(run, conn);
  swap_connections(conn);
  conn.parked = true;
  conn.phase = H1Phase::closed;
}

// The churn request's connection ends (if it is still open, it failed: it is not reused).
void unpark(H1Run& run, H1Conn& conn) {
  close_conn(run, conn);
  swap_connections(conn);
  conn.parked = false;
  conn.phase = conn.fd >= 0 ? H1Phase::idle : H1Phase::closed;
}

void H1Run::opened(Link& link) {
  auto& conn = static_cast<H1Conn&>(link);
  conn.served = 0;
  if (conn.ticket) return start_exchange(*this, conn);
  conn.phase = H1Phase::idle;  // opened ahead of the schedule
  conn.deadline = kNever;
}

// A failure (the server refuses, or no source port is left: EADDRNOTAVAIL) was counted; the
// ticket stays and the connection tries again a little later (one opened ahead of the
// schedule, without a ticket, is opened again when a request needs it).
void H1Run::open_failed(Link& link) {
  auto& conn = static_cast<H1Conn&>(link);
  close_conn(*this, conn);
  conn.deadline = kNever;
  if (conn.ticket) reopen_at(conn, Clock::now() + kConnectRetry);
}

void H1Run::ready(Link& link) { on_ready(*this, static_cast<H1Conn&>(link)); }

void H1Run::expired(Link& link) { load_detail::expire(*this, static_cast<H1Conn&>(link)); }

H1Run::~H1Run() {
  for (auto& conn : conns) {
    if (conn->fd >= 0) ::close(conn->fd);
    if (conn->parked_fd >= 0) ::close(conn->parked_fd);
  }
}

}  // namespace loiter::clients::load_detail
