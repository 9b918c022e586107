// Connections of one kind kept at a count, as an attacker keeps a slowloris pool full: the
// first `count` are opened on the fleet's pacing, and every one the server ends (or that
// never connects) is replaced by a new one at the next look, from a source address of its
// own. The denial ladder holds each step's stalled connections with it. It runs on a thread
// of its own (pinned where asked) on an io_context of its own; figures() may be read from
// any thread. Bounded: nothing is opened after `until` or past `most_opened` connects, and
// stop() (or the destructor) closes every connection still held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "loiter/clients/kinds.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"

namespace loiter::clients {

struct HolderPlan {
  const ClientKind* kind = nullptr;
  FleetSpec fleet;  // target, the count held, the first count's pacing, sources, TLS
  KindSettings settings;
  Clock::time_point until{};     // nothing is opened after it; every connection's patience reaches it
  std::size_t most_opened = 0;   // connects over the whole hold at most; 0: 20 × count
  Duration look = std::chrono::milliseconds(50);  // how often ended connections are replaced
  std::vector<int> cpus;         // the holder thread's; empty: not pinned
};

// The holder as of its last look.
struct HolderFigures {
  std::size_t open = 0;                // connected and not ended
  std::size_t open_low = 0;  // the fewest open at any look since mark_low() (0 before it)
  std::uint64_t opened = 0;            // connects attempted (spawned), the first count's too
  std::uint64_t reopened = 0;          // of those, replacements
  std::uint64_t connect_failures = 0;  // ended without ever connecting
  std::uint64_t ended = 0;             // every connection that ended (the server, or a failure)
  std::uint64_t bytes_sent = 0;        // by every connection so far
  // When `open` first reached the count; nullopt: not yet.
  std::optional<Clock::time_point> reached;
  bool exhausted = false;  // most_opened reached: ended ones are no longer replaced
};

class Holder {
 public:
  // Throws std::invalid_argument for a plan without a kind or count, or what
  // require_spawnable refuses (a target off loopback, too few descriptors).
  explicit Holder(HolderPlan plan);
  ~Holder();  // stop()
  Holder(const Holder&) = delete;
  Holder& operator=(const Holder&) = delete;

  HolderFigures figures() const;
  // Waits (woken at each look) until `count` are open, `deadline` comes or `cancelled()`
  // says so; returns the figures then.
  HolderFigures wait_for_open(std::size_t count, Clock::time_point deadline,
                              const std::function<bool()>& cancelled = {}) const;
  // From now on, figures().open_low is the fewest open at any look, starting from `open`.
  void mark_low();
  // Closes every connection and ends the thread; once. Throws what ended the thread early.
  void stop();
  // The holder thread's want of a CPU over its life so far (0 … 1): set by stop().
  double busy() const { return busy_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  double busy_ = 0;
};

}  // namespace loiter::clients
