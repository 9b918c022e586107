// The response reader parses status and fields with Beast however the bytes are split, and
// knows where each response ends: Content-Length, chunked, or the close.
#include "loiter/clients/http1/response_reader.hpp"

#include <gtest/gtest.h>

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kResponse =
    "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 2\r\n\r\nab";

TEST(ResponseReader, ParsesAResponseFedOneByteAtATime) {
  ResponseReader reader;
  std::vector<Response> responses;
  Duration at{};
  for (char c : kResponse) reader.feed(std::string_view(&c, 1), at += 1ms, responses);
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].status, 408u);
  using Field = Fields::Field;
  EXPECT_EQ(responses[0].fields.size(), 2u);
  EXPECT_EQ(responses[0].fields.list(),
            (std::vector<Field>{{"Connection", "close"}, {"Content-Length", "2"}}));
  EXPECT_EQ(responses[0].started, 1ms);
  EXPECT_EQ(responses[0].complete, at);
  EXPECT_EQ(responses[0].body_bytes, 2u);
}

// Fields are packed into one string; an empty value and repeated names survive in order.
TEST(ResponseReader, KeepsEveryFieldInOrderIncludingEmptyValues) {
  ResponseReader reader;
  std::vector<Response> responses;
  reader.feed(
      "HTTP/1.1 200 OK\r\nX-Empty:\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n"
      "Content-Length: 0\r\n\r\n",
      1ms, responses);
  ASSERT_EQ(responses.size(), 1u);
  using Field = Fields::Field;
  EXPECT_EQ(
      responses[0].fields.list(),
      (std::vector<Field>{
          {"X-Empty", ""}, {"Set-Cookie", "a=1"}, {"Set-Cookie", "b=2"}, {"Content-Length", "0"}}));
  EXPECT_EQ(responses[0].fields.size(), 4u);
  const Fields none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
}

TEST(ResponseReader, SeparatesResponsesThatArriveTogether) {
  ResponseReader reader;
  std::vector<Response> responses;
  const std::string two =
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
      "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
      "1\r\n!\r\n0\r\n\r\n";
  reader.feed(two, 5ms, responses);
  ASSERT_EQ(responses.size(), 2u);
  EXPECT_EQ(responses[0].status, 200u);
  EXPECT_EQ(responses[1].status, 404u);
  EXPECT_EQ(responses[1].body_bytes, 1u);
  EXPECT_TRUE(responses[1].complete.has_value());
}

TEST(ResponseReader, AResponseWithoutLengthIsWholeAtTheClose) {
  ResponseReader reader;
  std::vector<Response> responses;
  reader.feed("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nsome", 1ms, responses);
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_FALSE(responses[0].complete.has_value());
  reader.feed_eof(9ms, responses);
  EXPECT_EQ(responses[0].complete, 9ms);
  EXPECT_EQ(responses[0].body_bytes, 4u);
}

TEST(ResponseReader, ATruncatedBodyIsNeverWhole) {
  ResponseReader reader;
  std::vector<Response> responses;
  reader.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 1ms, responses);
  reader.feed_eof(2ms, responses);
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_FALSE(responses[0].complete.has_value());
  EXPECT_EQ(responses[0].body_bytes, 3u);
}

TEST(ResponseReader, GivesUpQuietlyOnBytesThatAreNotHttp) {
  ResponseReader reader;
  std::vector<Response> responses;
  reader.feed("SSH-2.0-OpenSSH_9.2\r\n", 1ms, responses);
  EXPECT_TRUE(responses.empty());
  EXPECT_TRUE(reader.failed());
}

}  // namespace
}  // namespace loiter::clients
