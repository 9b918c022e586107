// The TLS session under a client connection (see tls_session.hpp): our socket BIO, the
// alert callback, and OpenSSL's results mapped to the error codes the connection already
// tells endings by.
#include "transport/tls_session.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/ssl/error.hpp>
#include <cerrno>
#include <climits>
#include <cstdint>

namespace loiter::clients {
namespace {

using boost::system::error_code;

int fd_of(BIO* bio) { return static_cast<int>(reinterpret_cast<intptr_t>(BIO_get_data(bio))); }

int bio_write(BIO* bio, const char* data, size_t size, size_t* written) {
  BIO_clear_retry_flags(bio);
  const ssize_t n = ::send(fd_of(bio), data, size, MSG_NOSIGNAL);
  if (n >= 0) {
    *written = static_cast<size_t>(n);
    return 1;
  }
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) BIO_set_retry_write(bio);
  return 0;
}

int bio_read(BIO* bio, char* data, size_t size, size_t* read) {
  BIO_clear_retry_flags(bio);
  const ssize_t n = ::recv(fd_of(bio), data, size, 0);
  if (n > 0) {
    *read = static_cast<size_t>(n);
    return 1;
  }
  if (n == 0) {
    errno = 0;  // EOF: SSL_ERROR_SYSCALL without errno, or (ignoring it) a zero return
    return 0;
  }
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) BIO_set_retry_read(bio);
  return 0;
}

long bio_ctrl(BIO*, int command, long, void*) { return command == BIO_CTRL_FLUSH ? 1 : 0; }

// One method table for the process, made on first use (thread-safe static initialisation).
BIO_METHOD* socket_method() {
  static BIO_METHOD* const method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "loiter socket");
    BIO_meth_set_write_ex(m, bio_write);
    BIO_meth_set_read_ex(m, bio_read);
    BIO_meth_set_ctrl(m, bio_ctrl);
    return m;
  }();
  return method;
}

// Notes a fatal alert the server sent (level in the high byte, description in the low).
void on_info(const SSL* ssl, int where, int value) {
  if ((where & SSL_CB_READ_ALERT) == 0 || (value >> 8) != SSL3_AL_FATAL) return;
  auto* record = static_cast<TlsRecord*>(SSL_get_app_data(ssl));
  if (record != nullptr) record->alert = static_cast<unsigned>(value & 0xff);
}

TlsResult result_of(SSL* ssl, int ret) {
  if (ret > 0) return {};
  const int saved_errno = errno;
  switch (SSL_get_error(ssl, ret)) {
    case SSL_ERROR_WANT_READ:
      return {.ec = asio::error::would_block};
    case SSL_ERROR_WANT_WRITE:
      return {.ec = asio::error::would_block, .wants_write = true};
    case SSL_ERROR_ZERO_RETURN:
      return {.ec = asio::error::eof};  // close_notify, or a FIN (SSL_OP_IGNORE_UNEXPECTED_EOF)
    case SSL_ERROR_SYSCALL:
      ERR_clear_error();
      return {.ec = saved_errno == 0 ? error_code(asio::error::eof)
                                     : error_code(saved_errno, boost::system::system_category())};
    default: {
      const unsigned long code = ERR_get_error();
      ERR_clear_error();
      return {.ec = error_code(static_cast<int>(code), asio::error::get_ssl_category())};
    }
  }
}

int clamp_size(std::size_t size) { return static_cast<int>(std::min<std::size_t>(size, INT_MAX)); }

}  // namespace

void SslFree::operator()(ssl_st* ssl) const { SSL_free(ssl); }

TlsSession new_tls_session(const TlsContext& context, int fd, TlsRecord* record) {
  TlsSession ssl(SSL_new(context.native_handle()));
  BIO* bio = ssl ? BIO_new(socket_method()) : nullptr;
  if (bio == nullptr) {
    ERR_clear_error();
    return nullptr;
  }
  BIO_set_data(bio, reinterpret_cast<void*>(static_cast<intptr_t>(fd)));
  BIO_set_init(bio, 1);
  SSL_set_bio(ssl.get(), bio, bio);  // the session owns the BIO (one reference for both ends)
  SSL_set_app_data(ssl.get(), record);
  SSL_set_info_callback(ssl.get(), on_info);
  const auto& name = context.settings().server_name;
  if (!name.empty()) SSL_set_tlsext_host_name(ssl.get(), name.c_str());
  SSL_set_connect_state(ssl.get());
  return ssl;
}

TlsResult tls_handshake_step(ssl_st* ssl) {
  ERR_clear_error();
  return result_of(ssl, SSL_do_handshake(ssl));
}

TlsResult tls_read(ssl_st* ssl, char* data, std::size_t size) {
  ERR_clear_error();
  const int n = SSL_read(ssl, data, clamp_size(size));
  auto result = result_of(ssl, n);
  if (n > 0) result.bytes = static_cast<std::size_t>(n);
  return result;
}

TlsResult tls_write(ssl_st* ssl, const char* data, std::size_t size) {
  ERR_clear_error();
  const int n = SSL_write(ssl, data, clamp_size(size));
  auto result = result_of(ssl, n);
  if (n > 0) result.bytes = static_cast<std::size_t>(n);
  return result;
}

bool tls_pending(ssl_st* ssl) { return SSL_pending(ssl) > 0; }

bool tls_established(ssl_st* ssl) { return SSL_is_init_finished(ssl) != 0; }

// An alert record is 7 bytes: type 21, version (2), length 2, level, description.
void tls_note_raw(TlsRecord& record, const char* data, std::size_t size) {
  record.handshake_received += size;
  const auto* b = reinterpret_cast<const unsigned char*>(data);
  if (size >= 7 && b[0] == 21 && b[3] == 0 && b[4] == 2 && b[5] == SSL3_AL_FATAL) {
    record.alert = b[6];
  }
}

void tls_close_notify(ssl_st* ssl) {
  ERR_clear_error();
  if (SSL_is_init_finished(ssl)) SSL_shutdown(ssl);
  ERR_clear_error();
}

std::size_t tls_bytes_sent(ssl_st* ssl) { return BIO_number_written(SSL_get_wbio(ssl)); }
std::size_t tls_bytes_received(ssl_st* ssl) { return BIO_number_read(SSL_get_rbio(ssl)); }

std::string tls_version(ssl_st* ssl) { return SSL_get_version(ssl); }

std::string tls_alpn(ssl_st* ssl) {
  const unsigned char* data = nullptr;
  unsigned size = 0;
  SSL_get0_alpn_selected(ssl, &data, &size);
  return data == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace loiter::clients
