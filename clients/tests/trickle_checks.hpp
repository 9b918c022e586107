// What the trickling kinds' tests share (header-trickle, header-lines, tls-hello-trickle):
// a trickle that the server cuts off mid-way.
#pragma once

#include <gtest/gtest.h>

#include "drive.hpp"
#include "peer.hpp"

namespace loiter::clients::testing {

// Runs one connection of a trickling kind, one send each 30 ms, against a peer that closes
// 100 ms after its accept. The trickle must stop there: the record says the server closed,
// at the time the peer did, and the client sent no more than its first part, the sends due
// until the peer closed (timed from when it did: a starved peer closes later than asked, and
// the client rightly trickles on until then; beside a busy loop it closed 30 ms late, one
// send more than due in 100 ms) and the one that may leave before it sees the close; and
// none after it saw it.
template <class Options, class Spawn>
void expect_trickle_stops_at_the_close(Spawn spawn, Options options) {
  Peer peer({.action = PeerAction::close, .after = 100ms});
  options.fleet = {.target = peer.endpoint(), .count = 1, .patience = 2s};
  options.interval = 30ms;
  const auto records = drive(spawn, options);
  const auto& record = records.at(0);
  EXPECT_EQ(record.ending, Ending::close);
  const auto acted = peer_acted(peer, record);
  EXPECT_TRUE(near(record.ended_at, acted));
  ASSERT_NE(acted, Duration::max()) << "the peer never closed";
  const auto due = static_cast<std::size_t>(acted / options.interval);
  EXPECT_LE(record.sends.size(), 1u + due + 1u);
  for (const auto& send : record.sends) EXPECT_LE(send.at, record.ended_at);
}

}  // namespace loiter::clients::testing
