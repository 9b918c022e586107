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
// TLS) or HTTP/3 ([h3]: over QUIC); HTTP/1.1 otherwise.
inline clients::LoadProtocol load_protocol(const fixtures::Target& target) {
  if (target.h3) return clients::LoadProtocol::h3;
  return target.h2 ? clients::LoadProtocol::h2 : clients::LoadProtocol::http1;
}

// Load options as the target's regular traffic goes: its protocol, and over HTTP/3 its UDP
// port ([h3] port, else the run's port) and SNI.
inline void speak_to(const fixtures::Target& target, clients::LoadOptions& options) {
  options.protocol = load_protocol(target);
  if (!target.h3) return;
  if (target.h3->port) options.server.port(*target.h3->port);
  options.server_name = target.h3->server_name;
  options.tls = nullptr;  // QUIC brings its own TLS 1.3
}

}  // namespace loiter::suites
