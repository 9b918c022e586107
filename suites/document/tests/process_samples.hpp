// A process sample with every field a watch writes set, for the tests of what a watch writes
// and reads back (server_watch_test) and of its bytes as ever (raw_bytes_test).
#pragma once

#include <cstddef>

#include "loiter/fixtures/probe/sample.hpp"

namespace loiter::suites::testing {

// Three processes with `fds` descriptors (all but four of them sockets) counted by type, and
// TCP sockets in three states behind two listeners, with an accept queue.
inline fixtures::ProcessSample full_sample(std::size_t fds) {
  fixtures::ProcessSample s{.processes = 3, .fds = fds, .rss_kib = 20480, .threads = 7};
  s.fd_types = fixtures::FdTypes{.by_type = {fds - 4, 1, 2, 1, 0}};
  fixtures::TcpCounts tcp;
  tcp.server.by_state[static_cast<std::size_t>(fixtures::TcpState::listen)] = 2;
  tcp.server.by_state[static_cast<std::size_t>(fixtures::TcpState::established)] = 5;
  tcp.client.by_state[static_cast<std::size_t>(fixtures::TcpState::fin_wait2)] = 1;
  tcp.listeners = 2;
  tcp.accept_queue = 1;
  tcp.backlog = 1022;
  s.tcp = tcp;
  return s;
}

}  // namespace loiter::suites::testing
