// One record per client connection: plain data, no formatting, no judgement.
// Every time is on the steady clock; durations are measured from that connection's own
// connect (the moment its handshake completed), never from the start of a run.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loiter::clients {

using Clock = std::chrono::steady_clock;
using Duration = std::chrono::nanoseconds;

// How the connection ended, as the client observed it.
enum class Ending {
  close,           // EOF: the server closed (FIN)
  reset,           // the server reset the connection (RST), or another transport error
  open,            // still open when the client's patience ran out
  connect_failed,  // never connected
};

std::string_view to_string(Ending ending);

struct Send {
  Duration at{};  // since connect
  std::size_t bytes = 0;
};

// The status line and header fields of the first response, parsed with Beast.
struct Response {
  unsigned status = 0;
  std::string reason;
  std::vector<std::pair<std::string, std::string>> fields;
};

struct ConnectionRecord {
  std::string_view kind;  // the client behaviour, e.g. "silent" (a static string)
  std::string source;     // "127.0.0.2:40312"
  Clock::time_point connect_start{};
  Duration connect_took{};  // from connect start to handshake completion
  std::vector<Send> sends;
  std::optional<Duration> first_byte;  // since connect
  std::size_t bytes_received = 0;
  std::optional<Response> response;
  Ending ending = Ending::open;
  Duration ended_at{};  // since connect: when the ending was observed
  std::string error;    // the transport error, for reset and connect_failed

  Clock::time_point connected() const { return connect_start + connect_took; }
};

// "408+close", "close", "reset", "200+reset", "open", "connect-failed".
std::string ending_label(const ConnectionRecord& record);

}  // namespace loiter::clients
