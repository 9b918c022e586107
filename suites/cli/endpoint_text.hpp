// --connect's HOST:PORT: split, read as an address, or resolved where --allow-remote names
// the host by name.
#pragma once

#include <string>

#include "host_port.hpp"
#include "loiter/fixtures/probe/endpoint.hpp"

namespace loiter::cli {

// "127.0.0.1:8080", "[::1]:8080": an address, not a name. Throws std::invalid_argument.
fixtures::TcpEndpoint address_endpoint(const std::string& text);

// --connect's server: loopback, or the one host --allow-remote names (an address, or a name
// resolved here). Throws std::invalid_argument.
fixtures::TcpEndpoint connect_endpoint(const std::string& connect, const std::string& allow_remote);

}  // namespace loiter::cli
