// Every byte a client sends is declared: partial heads are exact prefixes of the whole head.
#include "loiter/clients/http1/requests.hpp"

#include <gtest/gtest.h>

namespace loiter::clients {
namespace {

TEST(Requests, BuildsAWholeHead) {
  EXPECT_EQ(request_head({}),
            "GET /health HTTP/1.1\r\nHost: localhost\r\nUser-Agent: loiter\r\nAccept: */*\r\n\r\n");
  EXPECT_NE(request_head({.method = "POST", .path = "/echo", .content_length = 7})
                .find("Content-Length: 7\r\n\r\n"),
            std::string::npos);
}

// connection_close adds "Connection: close" as the head's last field (the load's
// server_close requests).
TEST(Requests, AHeadThatAsksTheServerToClose) {
  const auto head = request_head({.host = "example.test", .connection_close = true});
  EXPECT_EQ(head,
            "GET /health HTTP/1.1\r\nHost: example.test\r\nUser-Agent: loiter\r\n"
            "Accept: */*\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(request_head({}).find("Connection"), std::string::npos);
}

TEST(Requests, StallPointsAreExactPrefixes) {
  const RequestShape shape{.host = "example.test"};
  const auto head = request_head(shape);
  EXPECT_EQ(partial_head(shape, StallPoint::nothing), "");
  EXPECT_EQ(partial_head(shape, StallPoint::request_line), "GET /health HTTP/1.1\r\n");
  EXPECT_EQ(partial_head(shape, StallPoint::mid_header_name),
            "GET /health HTTP/1.1\r\nHost: example.test\r\nUser-");
  EXPECT_EQ(partial_head(shape, StallPoint::mid_header_value),
            "GET /health HTTP/1.1\r\nHost: example.test\r\nUser-Agent: loi");
  EXPECT_EQ(partial_head(shape, StallPoint::before_final_crlf), head.substr(0, head.size() - 2));
}

TEST(Requests, BodiesHaveTheDeclaredLength) {
  EXPECT_EQ(request_body(20, 20), "{\"pad\":\"xxxxxxxxxx\"}");
  EXPECT_EQ(request_body(20, 5), "{\"pad");
  EXPECT_EQ(request_body(3, 3), "xxx");
}

}  // namespace
}  // namespace loiter::clients
