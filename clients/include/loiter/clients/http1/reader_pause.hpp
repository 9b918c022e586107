// reader-pause: sets a small receive buffer before connecting, GETs a large response, reads
// a little of it (read_first body bytes), then reads nothing for `pause`, so the receive
// window shuts and the server's writes block; then reads the rest as it comes. While paused
// it reads nothing but looks at the socket's TCP state every watch_every, so a server's
// reset is timed within that; a FIN queued behind unsent bytes is seen only once it reads
// again. A whole response ends with the client's own close. Observes: the pause (when, how
// much of the response was still unsent, whether the server's ending came during it), the
// response, and when and how the connection ended.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients {

inline constexpr std::string_view kReaderPause = "reader-pause";
// The same client with a pause the server must tolerate (a scenario's second fleet).
inline constexpr std::string_view kReaderShortPause = "reader-short-pause";

struct ReaderPauseOptions {
  FleetSpec fleet;
  std::string path = "/large";  // a response larger than the kernel's buffers (buffers.hpp)
  std::string host = "localhost";
  int receive_buffer = 4096;                 // SO_RCVBUF, set before connect
  std::size_t read_first = 64 * 1024;        // body bytes read before the pause
  Duration pause = std::chrono::seconds(4);  // how long nothing is read
  Duration watch_every = std::chrono::milliseconds(20);
  std::string_view kind = kReaderPause;  // the records' kind: a static string
};

awaitable<void> reader_pause_connection(Shared<ReaderPauseOptions> options, Slot slot);

// Spawns options.count reader-pause connections on `io`; run `io` to collect them into `out`.
void spawn_reader_pause(asio::io_context& io, const ReaderPauseOptions& options,
                        std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
