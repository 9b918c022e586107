// slow-reader: sets a small receive buffer before connecting, sends a GET for a large
// response, then reads at most read_size bytes per interval on its own timeline from its
// connect. Once the response is whole it keeps reading until the server ends it or patience
// runs out. Observes: bytes received over time (progress), whether the whole body arrived
// (responses[0].complete), and when and how the connection ended.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kSlowReader = "slow-reader";

struct SlowReaderOptions {
  FleetSpec fleet;
  std::string path = "/large";  // a large response
  std::string host = "localhost";
  int receive_buffer = 4096;     // SO_RCVBUF, set before connect (the kernel doubles it)
  std::size_t read_size = 1024;  // bytes read per interval at most
  Duration interval = std::chrono::milliseconds(100);
};

awaitable<void> slow_reader_connection(Shared<SlowReaderOptions> options, Slot slot);

// Spawns options.count slow-reader connections on `io`; run `io` to collect them into `out`.
void spawn_slow_reader(asio::io_context& io, const SlowReaderOptions& options,
                       std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
