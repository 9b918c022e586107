// header-lines, the line-by-line slowloris: the request line at once, then whole header lines
// one per interval, each in one write, never the end of the head.
#include "loiter/clients/http1/header_lines.hpp"

#include <gtest/gtest.h>

#include "drive.hpp"
#include "loiter/clients/http1/requests.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

// The request line and Host line, then "X-Loiter-<n>: <n>" lines: never an empty line.
TEST(HeaderLines, LinesAreWholeNumberedHeaderLines) {
  EXPECT_EQ(request_start({}), "GET /health HTTP/1.1\r\nHost: localhost\r\n");
  EXPECT_EQ(numbered_header_line(1), "X-Loiter-1: 1\r\n");
  EXPECT_EQ(numbered_header_line(12), "X-Loiter-12: 12\r\n");
}

// The peer receives exactly the request line, then one whole line per interval, and the
// record shows one send per line.
TEST(HeaderLines, SendsTheRequestLineThenOneWholeLinePerInterval) {
  Peer peer({.action = PeerAction::never_close});
  const auto records = drive(spawn_header_lines, HeaderLinesOptions{.target = peer.endpoint(),
                                                                    .count = 1,
                                                                    .patience = 300ms,
                                                                    .interval = 40ms,
                                                                    .max_lines = 5});
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  std::string expected = request_start({});
  for (std::size_t n = 1; n <= 5; ++n) expected += numbered_header_line(n);
  EXPECT_EQ(seen.received(), expected);
  ASSERT_EQ(seen.arrivals.size(), 6u) << "each line arrives on its own";
  EXPECT_EQ(seen.arrivals.front().bytes, request_start({}));
  for (std::size_t n = 1; n <= 5; ++n) {
    EXPECT_EQ(seen.arrivals[n].bytes, numbered_header_line(n));
    if (n > 1) {
      EXPECT_TRUE(near(seen.arrivals[n].at - seen.arrivals[n - 1].at, 40ms));
    }
  }
  const auto& record = records.at(0);
  ASSERT_EQ(record.sends.size(), 6u);
  for (std::size_t n = 1; n <= 5; ++n) {
    EXPECT_EQ(record.sends[n].bytes, numbered_header_line(n).size());
    EXPECT_TRUE(near(record.sends[n].at, 40ms * n));  // connection 0's phase is one interval
  }
  EXPECT_EQ(record.ending, Ending::open);
  EXPECT_TRUE(near(record.ended_at, 300ms));
}

// When the server closes mid-way, the lines stop and the close is recorded.
TEST(HeaderLines, StopsWhenTheServerCloses) {
  Peer peer({.action = PeerAction::close, .after = 100ms});
  const auto records = drive(
      spawn_header_lines,
      HeaderLinesOptions{.target = peer.endpoint(), .count = 1, .patience = 2s, .interval = 30ms});
  const auto& record = records.at(0);
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_TRUE(near(record.ended_at, 100ms));
  EXPECT_LE(record.sends.size(), 1u + 4u);
}

}  // namespace
}  // namespace loiter::clients
