// --connect's HOST:PORT: split (plain), and read as an address for the clients (Asio's
// endpoint: included only where connections are driven).
#pragma once

#include <string>

#include "host_port.hpp"
#include "loiter/clients/transport/asio.hpp"

namespace loiter::cli {

// "127.0.0.1:8080", "[::1]:8080": an address, not a name. Throws std::invalid_argument.
clients::tcp::endpoint parse_endpoint(const std::string& text);

}  // namespace loiter::cli
