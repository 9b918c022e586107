// HTTP/3: connections the server no longer answered, while its UDP socket dropped datagrams.
// Over QUIC a full receive queue and a server that forgot a connection look the same from
// the client: the sentence says which the kernel's counters point at.
#include <fmt/format.h>

#include "finding_words.hpp"

namespace loiter::reports::finding_words {

std::string udp_drops_words(const Finding& f) {
  constexpr std::string_view kMaybe =
      ": these endings may be the socket's, not the server's deadline";
  const auto drops = f.udp_drops.value_or(0);
  const auto rcvbuf = f.udp_rcvbuf_errors.value_or(0);
  if (drops > 0) {
    const auto machine =
        rcvbuf > 0 ? fmt::format("; the machine's UDP RcvbufErrors rose by {}", rcvbuf) : "";
    return fmt::format(
        "; the server's UDP socket dropped {} datagrams meanwhile (receive queue full{}){}", drops,
        machine, kMaybe);
  }
  if (rcvbuf > 0) {
    return fmt::format(
        "; the machine's UDP RcvbufErrors rose by {} meanwhile (a receive queue full: the "
        "server's socket's, or another's on this machine){}",
        rcvbuf, kMaybe);
  }
  return {};
}

}  // namespace loiter::reports::finding_words
