// TLS for client connections: one context per fleet (OpenSSL's SSL_CTX: the protocols and
// ALPN offered, no certificate check, since loiter tests a listener's lifecycle, not its
// identity), and a session per connection driven over the connection's non-blocking socket.
#pragma once

#include <memory>
#include <string>
#include <vector>

struct ssl_ctx_st;  // OpenSSL's SSL_CTX, kept out of this header
struct ssl_st;      // OpenSSL's SSL: one connection's session

namespace loiter::clients {

struct TlsSettings {
  std::vector<std::string> alpn = {"http/1.1"};  // offered in the ClientHello; empty: none
  std::string server_name;                       // SNI; empty: none
};

// A client SSL_CTX: TLS 1.2 to 1.3, no peer verification, the settings' ALPN list. Every
// session made from it sends the settings' server name (SNI) when it is not empty.
class TlsContext {
 public:
  explicit TlsContext(TlsSettings settings);  // throws std::runtime_error, see make_tls_client
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  const TlsSettings& settings() const { return settings_; }
  ssl_ctx_st* native_handle() const { return context_; }

 private:
  TlsSettings settings_;
  ssl_ctx_st* context_;
};

// One connection's session (made in transport/tls_session.cpp).
struct SslFree {
  void operator()(ssl_st* ssl) const;
};
using TlsSession = std::unique_ptr<ssl_st, SslFree>;

// A fleet's TLS, shared by its connections; null: cleartext.
using TlsClient = std::shared_ptr<const TlsContext>;

// Throws std::runtime_error with OpenSSL's reason when the context cannot be made.
TlsClient make_tls_client(const TlsSettings& settings);

}  // namespace loiter::clients
