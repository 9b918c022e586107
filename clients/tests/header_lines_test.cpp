// header-lines, the line-by-line slowloris: the request line at once, then whole header lines
// one per interval, each in one write, never the end of the head.
#include "loiter/clients/http1/header_lines.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "drive.hpp"
#include "loiter/clients/http1/requests.hpp"
#include "peer.hpp"
#include "trickle_checks.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

// When each whole line arrived at the peer (the request start counts as one); a line split
// over two arrivals fails the test.
std::vector<Clock::time_point> line_arrivals(const PeerConnection& seen) {
  std::vector<Clock::time_point> times;
  for (const auto& arrival : seen.arrivals) {
    EXPECT_TRUE(arrival.bytes.ends_with("\r\n")) << "a line split: " << arrival.bytes;
    const auto& bytes = arrival.bytes;
    const std::size_t start_lines = bytes.starts_with("GET ") ? 2 : 0;  // request line, Host
    auto lines = static_cast<std::size_t>(std::ranges::count(bytes, '\n'));
    if (start_lines > 0) {
      times.push_back(arrival.at);
      lines -= start_lines;
    }
    for (std::size_t i = 0; i < lines; ++i) times.push_back(arrival.at);
  }
  return times;
}

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
  const auto records =
      drive(spawn_header_lines,
            HeaderLinesOptions{.fleet = {.target = peer.endpoint(), .count = 1, .patience = 300ms},
                               .interval = 40ms,
                               .max_lines = 5});
  ASSERT_TRUE(peer.wait_for_client_ends(1, 1s));
  const auto seen = peer.connections().at(0);
  std::string expected = request_start({});
  for (std::size_t n = 1; n <= 5; ++n) expected += numbered_header_line(n);
  EXPECT_EQ(seen.received(), expected);
  const auto times = line_arrivals(seen);
  ASSERT_EQ(times.size(), 6u);  // the request start, then the five lines
  for (std::size_t n = 2; n <= 5; ++n) EXPECT_TRUE(near(times[n] - times[n - 1], 40ms));
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
  expect_trickle_stops_at_the_close(spawn_header_lines, HeaderLinesOptions{});
}

}  // namespace
}  // namespace loiter::clients
