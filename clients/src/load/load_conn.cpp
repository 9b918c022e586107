// The generator's connections: opening one (its source address, a non-blocking connect, the
// TLS handshake, all by the ticket's deadline), the client's FIN and RST, and setting the
// kept-alive connection aside while a churn request uses a connection of its own.
#include <sys/socket.h>
#include <unistd.h>

#include "load_run.hpp"
#include "load_socket.hpp"

namespace loiter::clients::load_detail {

namespace {

constexpr auto kConnectRetry = 10ms;  // after a failed connect, before the next attempt

void swap_connections(Conn& conn) {
  std::swap(conn.fd, conn.parked_fd);
  std::swap(conn.tls, conn.parked_tls);
  std::swap(conn.served, conn.parked_served);
}

void close_fd(Run& run, int& fd) {
  if (fd < 0) return;
  run.owner_of(fd) = nullptr;
  ::close(fd);  // leaves the epoll set with it
  fd = -1;
}

// A new socket toward the server (open_load_socket), owned by `conn`; -1 on failure.
int open_socket(Run& run, Conn& conn) {
  const int fd = open_load_socket(run, run.stamped);
  if (fd >= 0) run.owner_of(fd) = &conn;
  return fd;
}

void connected(Run& run, Conn& conn) {
  conn.served = 0;
  ++run.out.connections_opened;
  if (conn.ticket) return start_exchange(run, conn);
  conn.phase = Phase::idle;  // opened ahead of the schedule
  conn.deadline = kNever;
}

}  // namespace

void close_conn(Run& run, Conn& conn) {
  close_fd(run, conn.fd);
  conn.tls.reset();
  conn.filled = 0;
  conn.stirred = false;
  conn.phase = Phase::closed;
}

void reset_conn(Run& run, Conn& conn) {
  const linger now{.l_onoff = 1, .l_linger = 0};
  if (conn.fd >= 0) ::setsockopt(conn.fd, SOL_SOCKET, SO_LINGER, &now, sizeof now);
  close_conn(run, conn);
}

// One with unread bytes (extra after its last answer), or still being opened, is closed
// instead of parked.
void park(Run& run, Conn& conn) {
  if (conn.parked) return;
  if (conn.filled > 0 || conn.phase != Phase::idle) close_conn(run, conn);
  swap_connections(conn);
  conn.parked = true;
  conn.phase = Phase::closed;
}

// The churn request's connection ends (if it is still open, it failed: it is not reused).
void unpark(Run& run, Conn& conn) {
  close_conn(run, conn);
  swap_connections(conn);
  conn.parked = false;
  conn.phase = conn.fd >= 0 ? Phase::idle : Phase::closed;
}

// A failure (the server refuses, or no source port is left: EADDRNOTAVAIL) is counted as
// `kind`; the ticket stays and the connection tries again a little later (one opened ahead
// of the schedule, without a ticket, is opened again when a request needs it).
void connect_failed(Run& run, Conn& conn, const char* kind) {
  ++run.out.errors[kind];
  close_conn(run, conn);
  conn.deadline = kNever;
  if (!conn.ticket) return;
  conn.retry_at = Clock::now() + kConnectRetry;
  run.next_retry = std::min(run.next_retry, conn.retry_at);
}

void begin_connect(Run& run, Conn& conn) {
  conn.retry_at = kNever;
  conn.fd = open_socket(run, conn);
  if (conn.fd < 0) return connect_failed(run, conn, "connect-failed");
  conn.phase = Phase::connecting;
  conn.deadline = Clock::now() + run.options.request_timeout;
}

void on_connect_ready(Run& run, Conn& conn) {
  const OpenStep step = open_step(run.options.tls, conn.fd, conn.tls);
  if (step.state == Opening::failed) return connect_failed(run, conn, step.failure);
  if (step.state == Opening::open) return connected(run, conn);
  if (conn.tls) conn.phase = Phase::handshaking;  // within the same deadline
}

}  // namespace loiter::clients::load_detail
