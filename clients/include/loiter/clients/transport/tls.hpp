// TLS for client connections: one context per fleet (OpenSSL's SSL_CTX: the protocols and
// ALPN offered, no certificate check, since loiter tests a listener's lifecycle, not its
// identity), and a session per connection driven over the connection's non-blocking socket.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace loiter::clients {

struct TlsSettings {
  std::vector<std::string> alpn = {"http/1.1"};  // offered in the ClientHello; empty: none
  std::string server_name;                       // SNI; empty: none
};

class TlsContext;  // tls.cpp: the SSL_CTX and the settings it was made from

// A fleet's TLS, shared by its connections; null: cleartext.
using TlsClient = std::shared_ptr<const TlsContext>;

// Throws std::runtime_error with OpenSSL's reason when the context cannot be made.
TlsClient make_tls_client(const TlsSettings& settings);

}  // namespace loiter::clients
