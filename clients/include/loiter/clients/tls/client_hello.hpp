// A real ClientHello, as OpenSSL itself writes it for the given ALPN and SNI: the bytes a
// handshake-stall client sends raw over plain TCP, a piece at a time or not at all.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "loiter/clients/transport/tls.hpp"

namespace loiter::clients {

// The TLS record header's size: content type, legacy version, length.
inline constexpr std::size_t kTlsRecordHeaderSize = 5;
// The record type of a handshake message (RFC 8446 5.1).
inline constexpr unsigned char kTlsHandshakeRecord = 0x16;

// One TLS record (type 0x16) holding the ClientHello OpenSSL sends first with `settings`:
// made through memory BIOs, so no socket is involved. Throws std::runtime_error with
// OpenSSL's reason if it cannot be made, or if OpenSSL wrote anything but one whole record.
std::string client_hello(const TlsSettings& settings);

// The length a TLS record header declares for the record's body (bytes 3 and 4); 0 for
// fewer than kTlsRecordHeaderSize bytes.
std::size_t tls_record_length(std::string_view record);

}  // namespace loiter::clients
