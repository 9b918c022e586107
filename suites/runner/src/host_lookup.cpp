#include "loiter/suites/runner/host_lookup.hpp"

#include "loiter/clients/transport/asio.hpp"

namespace loiter::suites {

std::variant<fixtures::IpAddress, std::string> look_up_host(const std::string& host,
                                                            unsigned short port) {
  clients::asio::io_context io;
  clients::tcp::resolver resolver(io);
  boost::system::error_code error;
  const auto found = resolver.resolve(host, std::to_string(port), error);
  if (error) return error.message();
  if (found.empty()) return std::string("no address");
  const auto address = fixtures::IpAddress::parse(found.begin()->endpoint().address().to_string());
  if (!address) return std::string("no numeric address");
  return *address;
}

}  // namespace loiter::suites
