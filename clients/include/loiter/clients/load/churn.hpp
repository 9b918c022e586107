// The connection churn a load mixes into its regular traffic: plain data, no Asio, so a
// scenario's parameters can carry it.
#pragma once

#include <cstddef>
#include <string>

namespace loiter::clients {

// Connection churn mixed into the regular traffic (the soak): each share is a fraction of
// the requests, spread evenly over the timeline (request i's kind follows from i alone, a
// low-discrepancy sequence, so every run and every shard picks the same ones). All zero: every
// request goes over the kept-alive pool, as before.
// A fresh, server_close or abort request goes on a connection of its own, opened for it
// (latency from intended includes that connect); the slot's kept-alive connection waits
// meanwhile, so only replace_every (or an error, or the server) ends a kept-alive
// connection, and connections_opened = the pool's + replaced + fresh_closed + server_closed
// + aborted (+ reconnects after errors, and less the replacements no request followed).
// server_close is counted when the answer says "Connection: close" and the server's FIN
// follows within request_timeout; an answer that keeps the connection is no error (the
// client closes it, uncounted).
struct Churn {
  double fresh = 0.0;         // sent on a fresh connection that the client closes after the answer
  double server_close = 0.0;  // sent with "Connection: close": the server closes after answering
  double abort = 0.0;         // the client resets (RST) the connection once the answer has begun
  // A kept-alive connection is closed by the client (FIN) after this many requests and a new
  // one opened for the next; 0: never.
  std::size_t replace_every = 0;
  // What aborted requests ask for (a large answer, so the reset comes mid-response); empty:
  // LoadOptions::path.
  std::string abort_path;
  bool any() const { return fresh > 0 || server_close > 0 || abort > 0 || replace_every > 0; }
};

}  // namespace loiter::clients
