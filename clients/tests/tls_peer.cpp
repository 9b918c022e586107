#include "tls_peer.hpp"

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <array>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <stdexcept>

namespace loiter::clients::testing {
namespace {

namespace ssl = asio::ssl;
using boost::system::error_code;

// Chooses http/1.1 when offered; with `refuse` (the arg) a fatal alert instead.
int select_alpn(SSL*, const unsigned char** out, unsigned char* out_size, const unsigned char* in,
                unsigned in_size, void* refuse) {
  if (*static_cast<const bool*>(refuse)) return SSL_TLSEXT_ERR_ALERT_FATAL;
  static const unsigned char kHttp11[] = "\x08http/1.1";
  auto** chosen = const_cast<unsigned char**>(out);
  const int found =
      SSL_select_next_proto(chosen, out_size, kHttp11, sizeof kHttp11 - 1, in, in_size);
  return found == OPENSSL_NPN_NEGOTIATED ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK;
}

std::string ending_name(const error_code& ec) {
  if (ec == asio::error::eof) return "close_notify";
  if (ec == ssl::error::stream_truncated) return "truncated";
  return ec.message();
}

}  // namespace

// A throwaway self-signed certificate for CN=localhost, valid for 100 years, and its P-256
// key, made in memory: the client checks no certificate, the peer needs one to handshake.
void use_throwaway_certificate(asio::ssl::context& context) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  if (key == nullptr || cert == nullptr) throw std::runtime_error("test certificate: no memory");
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 100L * 365 * 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  const bool made = X509_sign(cert, key, EVP_sha256()) > 0 &&
                    SSL_CTX_use_certificate(context.native_handle(), cert) == 1 &&
                    SSL_CTX_use_PrivateKey(context.native_handle(), key) == 1;
  X509_free(cert);
  EVP_PKEY_free(key);
  if (!made) throw std::runtime_error("test certificate: could not be made or used");
}

struct TlsPeer::Served {
  Served(tcp::socket socket, ssl::context& context, std::size_t i)
      : stream(std::move(socket), context), closer(stream.get_executor()), index(i) {}
  ssl::stream<tcp::socket> stream;
  asio::steady_timer closer;
  std::size_t index;
  std::array<char, 4096> buffer{};
  std::string heads;  // decrypted bytes not yet answered
  bool ended = false;
};

TlsPeer::TlsPeer(TlsPeerScript script) : script_(script) {
  use_throwaway_certificate(context_);
  SSL_CTX_set_alpn_select_cb(context_.native_handle(), select_alpn, &script_.alert);
  start([this](tcp::socket socket) {
    serve(std::make_shared<Served>(std::move(socket), context_, record({})));
  });
}

TlsPeer::~TlsPeer() { stop(); }

void TlsPeer::serve(std::shared_ptr<Served> served) {
  if (script_.close_after) {
    served->closer.expires_after(*script_.close_after);
    served->closer.async_wait([this, served](const error_code& ec) {
      if (ec) return;
      error_code ignored;
      {  // noted before the FIN goes, so a client that saw it finds it noted
        const std::scoped_lock lock(mutex_);
        seen_[served->index].acted = Clock::now();
      }
      served->stream.next_layer().close(ignored);  // a FIN; pending reads are cancelled
      ended(*served);
    });
  }
  if (!script_.handshake) {
    read_raw(served);
    return;
  }
  served->stream.async_handshake(ssl::stream_base::server, [this, served](const error_code& ec) {
    if (ec) {
      error_code ignored;
      served->stream.next_layer().close(ignored);  // after the alert, if any: a FIN
      ended(*served);
      return;
    }
    {
      const std::scoped_lock lock(mutex_);
      seen_[served->index].handshake_done = true;
    }
    read_requests(served);
  });
}

void TlsPeer::read_raw(std::shared_ptr<Served> served) {
  auto& socket = served->stream.next_layer();
  socket.async_read_some(asio::buffer(served->buffer),
                         [this, served](const error_code& ec, std::size_t n) {
                           {
                             const std::scoped_lock lock(mutex_);
                             seen_[served->index].raw_bytes += n;
                           }
                           if (ec) {
                             ended(*served);
                             return;
                           }
                           read_raw(served);
                         });
}

// Answers each whole request head (up to an empty line) with a 200.
void TlsPeer::read_requests(std::shared_ptr<Served> served) {
  served->stream.async_read_some(
      asio::buffer(served->buffer), [this, served](const error_code& ec, std::size_t n) {
        served->heads.append(served->buffer.data(), n);
        auto answers = std::make_shared<std::string>();
        for (auto end = served->heads.find("\r\n\r\n"); end != std::string::npos;
             end = served->heads.find("\r\n\r\n")) {
          served->heads.erase(0, end + 4);
          *answers += kTlsPeerOk;
        }
        {
          const std::scoped_lock lock(mutex_);
          auto& seen = seen_[served->index];
          seen.received.append(served->buffer.data(), n);
          seen.answered += answers->size() / kTlsPeerOk.size();
        }
        if (ec) {
          {
            const std::scoped_lock lock(mutex_);
            seen_[served->index].client_ending = ending_name(ec);
          }
          ended(*served);
          return;
        }
        if (!answers->empty()) {
          asio::async_write(served->stream, asio::buffer(*answers),
                            [answers](const error_code&, std::size_t) {});
        }
        read_requests(served);
      });
}

void TlsPeer::ended(const Served& served) {
  {
    const std::scoped_lock lock(mutex_);
    seen_[served.index].client_ended = true;
  }
  changed_.notify_all();
}

::testing::AssertionResult TlsPeer::wait_for_ends(std::size_t count, Duration timeout) const {
  std::unique_lock lock(mutex_);
  const auto enough = [&] {
    return static_cast<std::size_t>(std::count_if(
               seen_.begin(), seen_.end(), [](const auto& c) { return c.client_ended; })) >= count;
  };
  if (changed_.wait_for(lock, timeout, enough)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "fewer than " << count << " connections ended within "
                                       << std::chrono::duration<double>(timeout).count() << " s";
}

}  // namespace loiter::clients::testing
