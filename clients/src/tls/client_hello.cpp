// client_hello(): an SSL_CTX and an SSL over two memory BIOs; one SSL_connect writes the
// ClientHello into the write BIO and stops for the server's answer (SSL_ERROR_WANT_READ).
#include "loiter/clients/tls/client_hello.hpp"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <memory>
#include <stdexcept>

namespace loiter::clients {

namespace {

struct FreeCtx {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};
struct FreeSsl {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};

// OpenSSL's reason for the last failure, after `what`.
std::runtime_error failure(std::string_view what) {
  const unsigned long code = ERR_get_error();
  char reason[256] = "no reason given";
  if (code != 0) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  return std::runtime_error(fmt::format("ClientHello: {}: {}", what, reason));
}

// The ALPN list in its wire form: each protocol prefixed by its length.
std::string alpn_wire(const TlsSettings& settings) {
  std::string wire;
  for (const auto& protocol : settings.alpn) {
    if (protocol.empty() || protocol.size() > 255) {
      throw std::runtime_error(
          fmt::format("ClientHello: ALPN protocol '{}' is not 1-255 bytes", protocol));
    }
    wire += static_cast<char>(protocol.size());
    wire += protocol;
  }
  return wire;
}

std::unique_ptr<SSL, FreeSsl> client_session(SSL_CTX* ctx, const TlsSettings& settings) {
  std::unique_ptr<SSL, FreeSsl> ssl(SSL_new(ctx));
  if (!ssl) throw failure("SSL_new");
  if (!settings.server_name.empty() &&
      SSL_set_tlsext_host_name(ssl.get(), settings.server_name.c_str()) != 1) {
    throw failure(fmt::format("server name '{}'", settings.server_name));
  }
  BIO* rbio = BIO_new(BIO_s_mem());
  BIO* wbio = BIO_new(BIO_s_mem());
  if (rbio == nullptr || wbio == nullptr) {
    BIO_free(rbio);
    BIO_free(wbio);
    throw failure("BIO_new");
  }
  SSL_set_bio(ssl.get(), rbio, wbio);  // the session owns both from here
  SSL_set_connect_state(ssl.get());
  return ssl;
}

}  // namespace

std::size_t tls_record_length(std::string_view record) {
  if (record.size() < kTlsRecordHeaderSize) return 0;
  return static_cast<std::size_t>(static_cast<unsigned char>(record[3])) << 8 |
         static_cast<unsigned char>(record[4]);
}

std::string client_hello(const TlsSettings& settings) {
  std::unique_ptr<SSL_CTX, FreeCtx> ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) throw failure("SSL_CTX_new");
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
  const auto wire = alpn_wire(settings);
  // SSL_CTX_set_alpn_protos returns 0 on success, unlike most of OpenSSL.
  if (!wire.empty() &&
      SSL_CTX_set_alpn_protos(ctx.get(), reinterpret_cast<const unsigned char*>(wire.data()),
                              static_cast<unsigned>(wire.size())) != 0) {
    throw failure("ALPN");
  }
  auto ssl = client_session(ctx.get(), settings);
  const int result = SSL_connect(ssl.get());
  if (result == 1 || SSL_get_error(ssl.get(), result) != SSL_ERROR_WANT_READ) {
    throw failure("SSL_connect did not stop for the server's answer");
  }
  BIO* wbio = SSL_get_wbio(ssl.get());
  std::string hello(BIO_ctrl_pending(wbio), '\0');
  const int read = BIO_read(wbio, hello.data(), static_cast<int>(hello.size()));
  hello.resize(read > 0 ? static_cast<std::size_t>(read) : 0);
  if (hello.size() < kTlsRecordHeaderSize ||
      static_cast<unsigned char>(hello[0]) != kTlsHandshakeRecord ||
      tls_record_length(hello) != hello.size() - kTlsRecordHeaderSize) {
    throw std::runtime_error(
        fmt::format("ClientHello: OpenSSL wrote {} bytes, not one handshake record", hello.size()));
  }
  return hello;
}

}  // namespace loiter::clients
