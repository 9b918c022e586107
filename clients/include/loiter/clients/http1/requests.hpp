// The bytes the clients send: a request head built from a few parameters, and the exact
// prefixes and trickles of it that the adversarial clients use. Nothing is hidden: every
// byte a client sends comes from here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace loiter::clients {

struct RequestShape {
  std::string_view method = "GET";
  std::string_view path = "/health";
  std::string_view host = "localhost";
  std::size_t content_length = 0;  // with a body: Content-Type and Content-Length fields
  bool connection_close = false;   // a "Connection: close" field, last
};

// The whole head, final CRLF included:
//   GET /health HTTP/1.1\r\nHost: localhost\r\nUser-Agent: loiter\r\nAccept: */*\r\n\r\n
std::string request_head(const RequestShape& shape);

// Where a partial head stops. The header fields split are those of User-Agent: loiter.
enum class StallPoint {
  nothing,            // no byte at all
  request_line,       // "GET /health HTTP/1.1\r\n"
  mid_header_name,    // … "Host: localhost\r\nUser-"
  mid_header_value,   // … "Host: localhost\r\nUser-Agent: loi"
  before_final_crlf,  // every header line, but not the empty line that ends the head
};

std::string_view to_string(StallPoint stall);

// The exact prefix of request_head(shape) that stops at `stall`.
std::string partial_head(const RequestShape& shape, StallPoint stall);

// The header-trickle's bytes after its request line: the head's own header lines, then
// "X-Loiter-Trickle: 1\r\n" lines without end, never the empty line that ends the head.
char header_trickle_byte(std::string_view header_lines, std::size_t k);
// The header lines of request_head(shape), without the request line or the final CRLF.
std::string header_lines(const RequestShape& shape);

// header-lines' first send: the request line and the Host line,
//   GET /health HTTP/1.1\r\nHost: localhost\r\n
std::string request_start(const RequestShape& shape);
// header-lines' n-th line after it (n from 1): "X-Loiter-<n>: <n>\r\n", a whole header line.
std::string numbered_header_line(std::size_t n);

// Byte k of a JSON body of `length` bytes: {"pad":"xxx…"} (all x when shorter than 10).
char body_byte(std::size_t length, std::size_t k);
std::string request_body(std::size_t length, std::size_t prefix);  // its first `prefix` bytes

}  // namespace loiter::clients
