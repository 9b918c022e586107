// reader-pause against an in-process peer: it reads a little, stops reading, sees a reset
// during its pause without reading, and reads a response whole after a pause the peer
// tolerates.
#include "loiter/clients/http1/reader_pause.hpp"

#include <gtest/gtest.h>

#include "drive.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

std::string response_of(std::size_t body) {
  return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body) + "\r\n\r\n" +
         std::string(body, 'x');
}

// A reset while the reader reads nothing is seen within its watch interval, and the record
// says how much of the response was still unsent when it stopped.
TEST(ReaderPause, SeesAResetDuringItsPauseWithoutReading) {
  constexpr std::size_t kBody = 16 << 20;  // more than the peer's socket can hold
  Peer peer({.action = PeerAction::reset, .after = 500ms, .answer = response_of(kBody)});
  const auto records =
      drive(spawn_reader_pause,
            ReaderPauseOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 5s},
                               .read_first = 16 * 1024,
                               .pause = 3s});
  const auto& record = records.at(0);
  ASSERT_TRUE(record.pause.has_value());
  EXPECT_TRUE(record.pause->ended_while_paused);
  EXPECT_EQ(record.ending, Ending::reset);
  // The peer resets 500 ms after its accept; the reader sees it one watch interval late at most.
  EXPECT_GE(record.ended_at, 500ms - kTolerance);
  EXPECT_LT(record.ended_at, 500ms + 20ms + kTolerance) << ms(record.ended_at) << " ms";
  ASSERT_TRUE(record.pause->unsent.has_value());
  // Content-Length less what had come when it stopped: at least 16 KiB had, and no more
  // than it had when the reset ended it (the unread bytes are read then).
  EXPECT_LE(*record.pause->unsent, kBody - 16 * 1024);
  EXPECT_GE(*record.pause->unsent, kBody - record.responses.at(0).body_bytes);
  EXPECT_GT(*record.pause->unsent, kBody / 2);
}

// A response the peer keeps sending is read whole after the pause, and the client closes.
TEST(ReaderPause, ReadsTheRestAfterItsPauseAndClosesItself) {
  constexpr std::size_t kBody = 256 * 1024;
  Peer peer({.action = PeerAction::never_close, .answer = response_of(kBody)});
  const auto records =
      drive(spawn_reader_pause,
            ReaderPauseOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 3s},
                               .read_first = 16 * 1024,
                               .pause = 200ms});
  const auto& record = records.at(0);
  ASSERT_TRUE(record.pause.has_value());
  EXPECT_FALSE(record.pause->ended_while_paused);
  EXPECT_TRUE(near(record.pause->until - record.pause->from, 200ms));
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_TRUE(record.responses[0].complete.has_value());
  EXPECT_EQ(record.responses[0].body_bytes, kBody);
  EXPECT_EQ(record.ending, Ending::client_close);
}

}  // namespace
}  // namespace loiter::clients
