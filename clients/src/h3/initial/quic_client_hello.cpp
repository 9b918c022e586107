#include "h3/initial/quic_client_hello.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "h3/initial/transport_params.hpp"

namespace loiter::clients::h3init {

namespace {

void put16(Bytes& out, std::size_t value) {
  out.push_back(static_cast<std::uint8_t>(value >> 8));
  out.push_back(static_cast<std::uint8_t>(value));
}

// An extension: type, then its body behind a two-byte length.
void put_extension(Bytes& out, std::uint16_t type, const Bytes& body) {
  put16(out, type);
  put16(out, body.size());
  out.insert(out.end(), body.begin(), body.end());
}

// A fresh X25519 public key (32 bytes).
Bytes x25519_public_key() {
  struct PkeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
  };
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "X25519"));
  Bytes out(32);
  std::size_t size = out.size();
  if (!key || EVP_PKEY_get_raw_public_key(key.get(), out.data(), &size) != 1 || size != 32) {
    ERR_clear_error();
    throw std::runtime_error("no X25519 key from OpenSSL");
  }
  return out;
}

}  // namespace

Bytes quic_client_hello(const std::string& server_name, const Bytes& scid) {
  if (server_name.size() > 255) throw std::invalid_argument("server name longer than 255");
  Bytes extensions;
  if (!server_name.empty()) {
    Bytes body;  // server_name_list: one host_name
    put16(body, server_name.size() + 3);
    body.push_back(0);  // name_type host_name
    put16(body, server_name.size());
    body.insert(body.end(), server_name.begin(), server_name.end());
    put_extension(extensions, 0x0000, body);
  }
  put_extension(extensions, 0x000a, {0x00, 0x02, 0x00, 0x1d});  // supported_groups: x25519
  // signature_algorithms: ECDSA P-256/384/521, RSA-PSS, Ed25519, RSA PKCS#1 (certificates).
  put_extension(extensions, 0x000d,
                {0x00, 0x14, 0x04, 0x03, 0x05, 0x03, 0x06, 0x03, 0x08, 0x04, 0x08,
                 0x05, 0x08, 0x06, 0x08, 0x07, 0x04, 0x01, 0x05, 0x01, 0x06, 0x01});
  put_extension(extensions, 0x0010, {0x00, 0x03, 0x02, 'h', '3'});  // ALPN: "h3"
  put_extension(extensions, 0x002b, {0x02, 0x03, 0x04});            // supported_versions: TLS 1.3
  {
    const Bytes public_key = x25519_public_key();
    Bytes body;  // client_shares: one KeyShareEntry, x25519
    put16(body, 4 + public_key.size());
    put16(body, 0x001d);
    put16(body, public_key.size());
    body.insert(body.end(), public_key.begin(), public_key.end());
    put_extension(extensions, 0x0033, body);
  }
  put_extension(extensions, 0x0039, encode(TransportParams{.initial_source_connection_id = scid}));

  Bytes body;
  put16(body, 0x0303);  // legacy_version
  const Bytes random = random_bytes(32);
  body.insert(body.end(), random.begin(), random.end());
  body.push_back(0);  // legacy_session_id: empty (RFC 9001 8.4)
  put16(body, 6);     // cipher_suites
  for (const std::uint8_t byte : Bytes{0x13, 0x01, 0x13, 0x02, 0x13, 0x03}) body.push_back(byte);
  body.push_back(1);  // legacy_compression_methods: null only
  body.push_back(0);
  put16(body, extensions.size());
  body.insert(body.end(), extensions.begin(), extensions.end());

  Bytes hello;
  hello.push_back(0x01);  // HandshakeType client_hello, then a 24-bit length
  hello.push_back(static_cast<std::uint8_t>(body.size() >> 16));
  put16(hello, body.size());
  hello.insert(hello.end(), body.begin(), body.end());
  return hello;
}

}  // namespace loiter::clients::h3init
