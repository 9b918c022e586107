// A TLS 1.3 ClientHello for QUIC, written by hand: the handshake message alone (no TLS
// record around it: QUIC carries it in CRYPTO frames, RFC 9001 4.1). The existing
// tls/client_hello.cpp asks OpenSSL for its hello inside a record, with a legacy session
// ID (middlebox compatibility, which QUIC forbids: RFC 9001 8.4) and TLS 1.2 baggage; a
// hand-made one says exactly what goes on the wire and costs no SSL object.
// Private to loiter::clients_h3_initial.
#pragma once

#include <string>

#include "h3/initial/initial_keys.hpp"

namespace loiter::clients::h3init {

// ClientHello (type 1): TLS 1.3 only (supported_versions 0x0304; TLS_AES_128_GCM_SHA256,
// TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256), SNI `server_name` (none if
// empty), ALPN "h3", supported_groups and key_share x25519 (a fresh key from OpenSSL, its
// private half dropped: the handshake is never finished), signature_algorithms, and
// quic_transport_parameters with initial_source_connection_id = `scid`.
Bytes quic_client_hello(const std::string& server_name, const Bytes& scid);

}  // namespace loiter::clients::h3init
