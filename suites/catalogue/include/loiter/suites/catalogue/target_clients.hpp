// A target as loiter's clients speak to it: its TLS client and the protocol of its regular
// traffic. One place, so a scenario's load, a ladder's trial and the runner's clients agree.
#pragma once

#include "loiter/clients/load/load.hpp"
#include "loiter/clients/transport/tls.hpp"
#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites {

// The target's TLS as the clients speak it (its ALPN list and server name); null for a
// cleartext target.
inline clients::TlsClient tls_client(const fixtures::Target& target) {
  if (!target.tls) return nullptr;
  return clients::make_tls_client(
      {.alpn = target.tls->alpn, .server_name = target.tls->server_name});
}

// Regular traffic as streams on the pool when the target speaks HTTP/2 (h2c, or h2 over
// TLS); HTTP/1.1 otherwise, an [h3] target's too (over its TCP port) until the load engine
// has an HTTP/3 exchange.
inline clients::LoadProtocol load_protocol(const fixtures::Target& target) {
  return target.h2 ? clients::LoadProtocol::h2 : clients::LoadProtocol::http1;
}

}  // namespace loiter::suites
