#include "h3/initial/initial_keys.hpp"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace loiter::clients::h3init {

namespace {

[[noreturn]] void fail(std::string_view what) {
  const unsigned long code = ERR_get_error();
  const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
  ERR_clear_error();
  throw std::runtime_error(std::string(what) + ": " + (reason ? reason : "no reason given"));
}

struct KdfFree {
  void operator()(EVP_KDF* kdf) const { EVP_KDF_free(kdf); }
  void operator()(EVP_KDF_CTX* ctx) const { EVP_KDF_CTX_free(ctx); }
};
struct CipherFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherFree>;

// One HKDF step through EVP_KDF: `mode` is extract-only or expand-only.
Bytes hkdf(int mode, std::span<const std::uint8_t> key, std::span<const std::uint8_t> salt,
           std::span<const std::uint8_t> info, std::size_t length) {
  std::unique_ptr<EVP_KDF, KdfFree> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  if (!kdf) fail("EVP_KDF_fetch(HKDF)");
  std::unique_ptr<EVP_KDF_CTX, KdfFree> ctx(EVP_KDF_CTX_new(kdf.get()));
  if (!ctx) fail("EVP_KDF_CTX_new");
  char digest[] = "SHA256";
  OSSL_PARAM params[6];
  std::size_t n = 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
  params[n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
  params[n++] = OSSL_PARAM_construct_octet_string(
      OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(key.data()), key.size());
  if (!salt.empty()) {
    params[n++] = OSSL_PARAM_construct_octet_string(
        OSSL_KDF_PARAM_SALT, const_cast<std::uint8_t*>(salt.data()), salt.size());
  }
  if (!info.empty()) {
    params[n++] = OSSL_PARAM_construct_octet_string(
        OSSL_KDF_PARAM_INFO, const_cast<std::uint8_t*>(info.data()), info.size());
  }
  params[n] = OSSL_PARAM_construct_end();
  Bytes out(length);
  if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1) fail("EVP_KDF_derive");
  return out;
}

template <std::size_t N>
std::array<std::uint8_t, N> expand_to(std::span<const std::uint8_t> secret,
                                      std::string_view label) {
  const Bytes bytes = hkdf_expand_label(secret, label, N);
  std::array<std::uint8_t, N> out{};
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

std::array<std::uint8_t, 12> nonce_for(const InitialKeys& keys, std::uint64_t packet_number) {
  auto nonce = keys.iv;
  for (std::size_t i = 0; i < 8; ++i) {
    nonce[nonce.size() - 1 - i] ^= static_cast<std::uint8_t>(packet_number >> (8 * i));
  }
  return nonce;
}

int as_int(std::size_t size) { return static_cast<int>(size); }

}  // namespace

Bytes hkdf_extract(std::span<const std::uint8_t> salt, std::span<const std::uint8_t> ikm) {
  return hkdf(EVP_KDF_HKDF_MODE_EXTRACT_ONLY, ikm, salt, {}, 32);
}

Bytes hkdf_expand_label(std::span<const std::uint8_t> secret, std::string_view label,
                        std::size_t length) {
  // struct { uint16 length; opaque label<7..255> = "tls13 " + label; opaque context<0..255>; }
  const std::string full = "tls13 " + std::string(label);
  Bytes info;
  info.push_back(static_cast<std::uint8_t>(length >> 8));
  info.push_back(static_cast<std::uint8_t>(length));
  info.push_back(static_cast<std::uint8_t>(full.size()));
  info.insert(info.end(), full.begin(), full.end());
  info.push_back(0);  // an empty context
  return hkdf(EVP_KDF_HKDF_MODE_EXPAND_ONLY, secret, {}, info, length);
}

InitialKeys initial_keys(std::span<const std::uint8_t> dcid, bool client) {
  const Bytes initial_secret = hkdf_extract(kInitialSalt, dcid);
  InitialKeys keys;
  keys.secret = hkdf_expand_label(initial_secret, client ? "client in" : "server in", 32);
  keys.key = expand_to<16>(keys.secret, "quic key");
  keys.iv = expand_to<12>(keys.secret, "quic iv");
  keys.hp = expand_to<16>(keys.secret, "quic hp");
  return keys;
}

Bytes seal(const InitialKeys& keys, std::uint64_t packet_number,
           std::span<const std::uint8_t> header, std::span<const std::uint8_t> plaintext) {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  const auto nonce = nonce_for(keys, packet_number);
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, keys.key.data(),
                                 nonce.data()) != 1) {
    fail("AES-128-GCM init");
  }
  int len = 0;
  if (EVP_EncryptUpdate(ctx.get(), nullptr, &len, header.data(), as_int(header.size())) != 1) {
    fail("AES-128-GCM aad");
  }
  Bytes out(plaintext.size() + kAeadTagSize);
  if (EVP_EncryptUpdate(ctx.get(), out.data(), &len, plaintext.data(), as_int(plaintext.size())) !=
      1) {
    fail("AES-128-GCM encrypt");
  }
  int tail = 0;
  if (EVP_EncryptFinal_ex(ctx.get(), out.data() + len, &tail) != 1) fail("AES-128-GCM final");
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, as_int(kAeadTagSize),
                          out.data() + plaintext.size()) != 1) {
    fail("AES-128-GCM tag");
  }
  return out;
}

std::optional<Bytes> open(const InitialKeys& keys, std::uint64_t packet_number,
                          std::span<const std::uint8_t> header,
                          std::span<const std::uint8_t> ciphertext_and_tag) {
  if (ciphertext_and_tag.size() < kAeadTagSize) return std::nullopt;
  const std::size_t size = ciphertext_and_tag.size() - kAeadTagSize;
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  const auto nonce = nonce_for(keys, packet_number);
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, keys.key.data(),
                                 nonce.data()) != 1) {
    fail("AES-128-GCM init");
  }
  int len = 0;
  if (EVP_DecryptUpdate(ctx.get(), nullptr, &len, header.data(), as_int(header.size())) != 1) {
    return std::nullopt;
  }
  Bytes out(size);
  if (EVP_DecryptUpdate(ctx.get(), out.data(), &len, ciphertext_and_tag.data(), as_int(size)) !=
      1) {
    return std::nullopt;
  }
  Bytes tag(ciphertext_and_tag.begin() + static_cast<std::ptrdiff_t>(size),
            ciphertext_and_tag.end());
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, as_int(kAeadTagSize), tag.data()) != 1) {
    return std::nullopt;
  }
  int tail = 0;
  if (EVP_DecryptFinal_ex(ctx.get(), out.data() + len, &tail) != 1) {
    ERR_clear_error();
    return std::nullopt;  // the tag did not verify
  }
  return out;
}

std::array<std::uint8_t, 5> header_mask(const InitialKeys& keys,
                                        std::span<const std::uint8_t> sample) {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  if (!ctx ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_ecb(), nullptr, keys.hp.data(), nullptr) != 1) {
    fail("AES-128-ECB init");
  }
  EVP_CIPHER_CTX_set_padding(ctx.get(), 0);
  std::array<std::uint8_t, 32> block{};
  int len = 0;
  if (sample.size() < kHpSampleSize ||
      EVP_EncryptUpdate(ctx.get(), block.data(), &len, sample.data(), as_int(kHpSampleSize)) != 1) {
    fail("AES-128-ECB encrypt");
  }
  return {block[0], block[1], block[2], block[3], block[4]};
}

Bytes random_bytes(std::size_t count) {
  Bytes out(count);
  if (RAND_bytes(out.data(), as_int(count)) != 1) fail("RAND_bytes");
  return out;
}

}  // namespace loiter::clients::h3init
