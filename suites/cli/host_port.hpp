// --connect's HOST:PORT taken apart: plain text, no Asio.
#pragma once

#include <string>

namespace loiter::cli {

// "HOST:PORT" taken apart: the host without an IPv6 address's brackets ("[::1]:8080": "::1"),
// the port 1..65535. Throws std::invalid_argument naming the text.
struct HostPort {
  std::string host;
  unsigned short port = 0;
};
HostPort split_host_port(const std::string& text);

}  // namespace loiter::cli
