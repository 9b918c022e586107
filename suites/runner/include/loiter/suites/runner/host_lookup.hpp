// A host name looked up (the system's resolver), for the one host off loopback a user may
// name by name (--allow-remote). Plain data: no Asio in this header.
#pragma once

#include <string>
#include <variant>

#include "loiter/fixtures/probe/endpoint.hpp"

namespace loiter::suites {

// The first address `host` resolves to for TCP `port`, or the resolver's words for why it
// has none.
std::variant<fixtures::IpAddress, std::string> look_up_host(const std::string& host,
                                                            unsigned short port);

}  // namespace loiter::suites
