// --connect's HOST:PORT, taken apart, read as an address, or resolved.
#include "endpoint_text.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <variant>

#include "loiter/fixtures/os/loopback.hpp"
#include "loiter/suites/runner/host_lookup.hpp"

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

fixtures::TcpEndpoint address_endpoint(const std::string& text) {
  const auto [host, port] = split_host_port(text);
  const auto address = fixtures::IpAddress::parse(host);
  if (!address)
    throw std::invalid_argument(fmt::format("--connect '{}' is not ADDRESS:PORT", text));
  return {*address, port};
}

fixtures::TcpEndpoint connect_endpoint(const std::string& connect,
                                       const std::string& allow_remote) {
  const auto [host, port] = split_host_port(connect);
  if (!fixtures::IpAddress::parse(host) && host == allow_remote) {  // a name: resolve it
    auto found = suites::look_up_host(host, port);
    if (const auto* why = std::get_if<std::string>(&found)) {
      throw std::invalid_argument(
          fmt::format("--connect {}: cannot resolve {}: {}", connect, host, *why));
    }
    return {std::get<fixtures::IpAddress>(found), port};
  }
  const auto server = address_endpoint(connect);
  const auto address = server.address().to_string();
  if (fixtures::is_loopback(address)) return server;
  if (allow_remote.empty() || (allow_remote != host && allow_remote != address)) {
    throw std::invalid_argument(fmt::format(
        "refusing {}: loiter only targets loopback unless --allow-remote names the host ({})",
        connect, host));
  }
  return server;
}

}  // namespace loiter::cli
