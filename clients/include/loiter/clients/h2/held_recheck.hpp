// h2-held-recheck, held-capacity's client over HTTP/2: speaks h2 (with prior knowledge, or
// over the fleet's TLS with ALPN h2), has stream 1 (GET path) answered whole — a handshake
// and a SETTINGS exchange alone are not a working connection — then holds the connection,
// reading and answering the server's SETTINGS and PINGs all the while, until the fleet-wide
// `recheck_at`; opens stream 3 on it (the re-check) and reads that answer too; holds it again
// until `release_at` and closes it itself (FIN).
// Observes: both responses (record.responses, one a stream), whatever the server's frames
// said (record.h2: a GOAWAY, a RST_STREAM) and any ending it chose before the client's close.
#pragma once

#include <vector>

#include "loiter/clients/h2/stalls.hpp"

namespace loiter::clients {

inline constexpr std::string_view kH2HeldRecheck = "h2-held-recheck";

struct H2HeldRecheckOptions : H2Options {
  Clock::time_point recheck_at{};  // the second stream, for every connection at once
  Clock::time_point release_at{};  // the client closes then
};

// Spawns options.fleet.count h2-held-recheck connections on `io`; run `io` to collect them
// into `out`.
void spawn_h2_held_recheck(asio::io_context& io, const H2HeldRecheckOptions& options,
                           std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
