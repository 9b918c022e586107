// What the floods share: the connect and opening, a flood's bounded sending (its frame
// count, its time, the server's GOAWAY or ending), and the wait for the server's ending
// once it stops. Private to the floods (flood_*.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "loiter/clients/h2/floods.hpp"

namespace loiter::clients::h2 {

// Checks the options every kind shares (std::invalid_argument), then spawns the fleet.
void spawn_flood(asio::io_context& io, const FloodOptions& options,
                 awaitable<void> (*connection)(Shared<FloodOptions>, Slot),
                 std::vector<ConnectionRecord>& out);

// Connects at the slot, speaks h2 (answering the server's SETTINGS and PINGs as its reads
// find them) and sends the preface, SETTINGS (no push, the largest window) and a connection
// WINDOW_UPDATE. Over TLS ALPN must have chosen h2 (else the client closes, and says why in
// record.error). False if it did not get that far.
awaitable<bool> open_flood(Connection& connection, const FloodOptions& options, const Slot& slot);

// One flood on one connection: how many frames it may still send, and until when.
class Flood {
 public:
  Flood(Connection& connection, ConnectionRecord& record, const FloodOptions& options,
        std::size_t own_bound);

  // Frames still to send (0 once done), bounded by the batch.
  std::size_t next_batch() const;
  // The flood may go on: frames left, time left, no GOAWAY read, the connection open.
  bool more() const;
  // Sends a batch of `frames` frames (and any replies owed first), counting them in
  // record.h2->frames_sent once sent. False if the send failed or ran out of time.
  awaitable<bool> send(std::string_view bytes, std::size_t frames);
  // Reads what the server sends for kBatchGap: the server's turn between two batches.
  awaitable<void> read_now();
  // Reads until the server ends the connection or patience runs out, then closes its end.
  awaitable<void> finish();

  std::size_t sent() const { return sent_; }
  Clock::time_point stop() const { return stop_; }

 private:
  Connection& connection_;
  ConnectionRecord& record_;
  const FloodOptions& options_;
  std::size_t bound_;
  std::size_t sent_ = 0;
  Clock::time_point stop_;
};

}  // namespace loiter::clients::h2
