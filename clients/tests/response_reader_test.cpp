// The response reader parses status and fields with Beast however the bytes are split.
#include "loiter/clients/response_reader.hpp"

#include <gtest/gtest.h>

namespace loiter::clients {
namespace {

constexpr std::string_view kResponse =
    "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 2\r\n\r\nab";

TEST(ResponseReader, ParsesAResponseFedOneByteAtATime) {
  ResponseReader reader;
  std::optional<Response> response;
  for (char c : kResponse) {
    if (auto r = reader.feed(std::string_view(&c, 1))) response = r;
  }
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 408u);
  ASSERT_EQ(response->fields.size(), 2u);
  EXPECT_EQ(response->fields[0].first, "Connection");
  EXPECT_EQ(response->fields[0].second, "close");
}

TEST(ResponseReader, GivesUpQuietlyOnBytesThatAreNotHttp) {
  ResponseReader reader;
  EXPECT_FALSE(reader.feed("SSH-2.0-OpenSSH_9.2\r\n").has_value());
  EXPECT_TRUE(reader.done());
}

}  // namespace
}  // namespace loiter::clients
