// --connect's HOST:PORT, taken apart and read as an address.
#include "endpoint_text.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace loiter::cli {

HostPort split_host_port(const std::string& text) {
  const auto problem = fmt::format("--connect '{}' is not HOST:PORT", text);
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) throw std::invalid_argument(problem);
  std::string host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  const bool digits = !port.empty() && port.size() <= 5 &&
                      port.find_first_not_of("0123456789") == std::string::npos;
  const int number = digits ? std::stoi(port) : 0;
  if (number < 1 || number > 65535) throw std::invalid_argument(problem);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string::npos) {
    throw std::invalid_argument(problem + " (an IPv6 address goes in [])");
  }
  if (host.find_first_of(" \t\n/") != std::string::npos) throw std::invalid_argument(problem);
  return {.host = host, .port = static_cast<unsigned short>(number)};
}

clients::tcp::endpoint parse_endpoint(const std::string& text) {
  const auto [host, port] = split_host_port(text);
  boost::system::error_code error;
  const auto address = clients::asio::ip::make_address(host, error);
  if (error) throw std::invalid_argument(fmt::format("--connect '{}' is not ADDRESS:PORT", text));
  return {address, port};
}

}  // namespace loiter::cli
