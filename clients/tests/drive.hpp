// Runs one fleet of a client kind to completion on its own io_context, for tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/time_scale.hpp"
#include "loiter/clients/transport/asio.hpp"

namespace loiter::clients::testing {

using namespace std::chrono_literals;

// `d` widened by LOITER_TIME_SCALE (time_scale.hpp): a slow or busy machine widens every
// window of these tests at once.
inline Duration scaled(Duration d) {
  return std::chrono::duration_cast<Duration>(d * time_scale());
}

// Every window in these tests: how far a recorded time may be from the peer's action.
inline const Duration kTolerance = scaled(20ms);

// A loopback endpoint nobody listens on: the port the OS gave a listener, closed again, so a
// connect to it is refused.
inline tcp::endpoint nobody_listening() {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  return acceptor.local_endpoint();
}

template <typename Options, typename Spawn>
std::vector<ConnectionRecord> drive(Spawn spawn, const Options& options) {
  asio::io_context io;
  std::vector<ConnectionRecord> records;
  spawn(io, options, records);
  io.run();
  return records;
}

inline double ms(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// Asserts a recorded time within kTolerance of `expected`.
inline ::testing::AssertionResult near(Duration actual, Duration expected) {
  const auto off = actual > expected ? actual - expected : expected - actual;
  if (off <= kTolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << ms(actual) << " ms is not within " << ms(kTolerance)
                                       << " ms of " << ms(expected) << " ms";
}

// When a peer (Peer, TlsPeer) acted on its first connection (its answer, FIN or RST went),
// from the client's connect: the time a client's record must show, its script's time or
// later on a busy machine (Duration::max() if it never acted, which no record is near).
template <class AnyPeer>
Duration peer_acted(const AnyPeer& peer, const ConnectionRecord& record) {
  const auto connections = peer.connections();
  if (connections.empty() || !connections.front().acted) return Duration::max();
  return *connections.front().acted - record.connected();
}

}  // namespace loiter::clients::testing
