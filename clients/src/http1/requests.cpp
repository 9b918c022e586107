#include "loiter/clients/http1/requests.hpp"

#include <fmt/format.h>

namespace loiter::clients {

namespace {

constexpr std::string_view kAgentName = "User-Agent";
constexpr std::string_view kAgentValue = "loiter";
constexpr std::string_view kTrickleLine = "X-Loiter-Trickle: 1\r\n";
constexpr std::string_view kBodyOpen = "{\"pad\":\"";
constexpr std::string_view kBodyClose = "\"}";

std::string request_line(const RequestShape& shape) {
  return fmt::format("{} {} HTTP/1.1\r\n", shape.method, shape.path);
}

}  // namespace

std::string header_lines(const RequestShape& shape) {
  std::string lines =
      fmt::format("Host: {}\r\n{}: {}\r\nAccept: */*\r\n", shape.host, kAgentName, kAgentValue);
  if (shape.content_length > 0 || shape.method == "POST") {
    lines += fmt::format("Content-Type: application/json\r\nContent-Length: {}\r\n",
                         shape.content_length);
  }
  if (shape.connection_close) lines += "Connection: close\r\n";
  return lines;
}

std::string request_head(const RequestShape& shape) {
  return request_line(shape) + header_lines(shape) + "\r\n";
}

std::string_view to_string(StallPoint stall) {
  switch (stall) {
    case StallPoint::nothing:
      return "nothing";
    case StallPoint::request_line:
      return "request-line";
    case StallPoint::mid_header_name:
      return "mid-header-name";
    case StallPoint::mid_header_value:
      return "mid-header-value";
    case StallPoint::before_final_crlf:
      return "before-final-crlf";
  }
  return "unknown";
}

std::string partial_head(const RequestShape& shape, StallPoint stall) {
  const std::string head = request_head(shape);
  const std::size_t agent = head.find(kAgentName);
  switch (stall) {
    case StallPoint::nothing:
      return {};
    case StallPoint::request_line:
      return request_line(shape);
    case StallPoint::mid_header_name:
      return head.substr(0, agent + kAgentName.size() / 2);
    case StallPoint::mid_header_value:
      return head.substr(0, agent + kAgentName.size() + 2 + kAgentValue.size() / 2);
    case StallPoint::before_final_crlf:
      return head.substr(0, head.size() - 2);
  }
  return {};
}

std::string request_start(const RequestShape& shape) {
  return fmt::format("{}Host: {}\r\n", request_line(shape), shape.host);
}

std::string numbered_header_line(std::size_t n) { return fmt::format("X-Loiter-{0}: {0}\r\n", n); }

char header_trickle_byte(std::string_view header_lines, std::size_t k) {
  if (k < header_lines.size()) return header_lines[k];
  return kTrickleLine[(k - header_lines.size()) % kTrickleLine.size()];
}

char body_byte(std::size_t length, std::size_t k) {
  if (length < kBodyOpen.size() + kBodyClose.size()) return 'x';
  if (k < kBodyOpen.size()) return kBodyOpen[k];
  const std::size_t close_at = length - kBodyClose.size();
  if (k >= close_at) return kBodyClose[k - close_at];
  return 'x';
}

std::string request_body(std::size_t length, std::size_t prefix) {
  std::string body;
  body.reserve(prefix);
  for (std::size_t k = 0; k < prefix && k < length; ++k) body += body_byte(length, k);
  return body;
}

}  // namespace loiter::clients
