#include "h3/initial/initial_keys.hpp"

#include "h3/initial/packet_protection.hpp"

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

[[noreturn]] void fail_keys(std::string_view what) {
  const unsigned long code = ERR_get_error();
  const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
  ERR_clear_error();
  throw std::runtime_error(std::string(what) + ": " + (reason ? reason : "no reason given"));
}

struct KdfFree {
  void operator()(EVP_KDF* kdf) const { EVP_KDF_free(kdf); }
  void operator()(EVP_KDF_CTX* ctx) const { EVP_KDF_CTX_free(ctx); }
};
// One HKDF step through EVP_KDF: `mode` is extract-only or expand-only.
Bytes hkdf(int mode, std::span<const std::uint8_t> key, std::span<const std::uint8_t> salt,
           std::span<const std::uint8_t> info, std::size_t length) {
  std::unique_ptr<EVP_KDF, KdfFree> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  if (!kdf) fail_keys("EVP_KDF_fetch(HKDF)");
  std::unique_ptr<EVP_KDF_CTX, KdfFree> ctx(EVP_KDF_CTX_new(kdf.get()));
  if (!ctx) fail_keys("EVP_KDF_CTX_new");
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
  if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1) fail_keys("EVP_KDF_derive");
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

// The Initials' AES-128-GCM and AES-128-ECB, through the one implementation of either AEAD
// (packet_protection.cpp).
namespace {
PacketKeys as_packet_keys(const InitialKeys& keys) {
  return PacketKeys{.aead = Aead::aes_128_gcm,
                    .key = Bytes(keys.key.begin(), keys.key.end()),
                    .iv = keys.iv,
                    .hp = Bytes(keys.hp.begin(), keys.hp.end())};
}
}  // namespace

Bytes seal(const InitialKeys& keys, std::uint64_t packet_number,
           std::span<const std::uint8_t> header, std::span<const std::uint8_t> plaintext) {
  return aead_seal(as_packet_keys(keys), packet_number, header, plaintext);
}

std::optional<Bytes> open(const InitialKeys& keys, std::uint64_t packet_number,
                          std::span<const std::uint8_t> header,
                          std::span<const std::uint8_t> ciphertext_and_tag) {
  return aead_open(as_packet_keys(keys), packet_number, header, ciphertext_and_tag);
}

std::array<std::uint8_t, 5> header_mask(const InitialKeys& keys,
                                        std::span<const std::uint8_t> sample) {
  return protection_mask(as_packet_keys(keys), sample);
}

Bytes random_bytes(std::size_t count) {
  Bytes out(count);
  if (RAND_bytes(out.data(), as_int(count)) != 1) fail_keys("RAND_bytes");
  return out;
}

}  // namespace loiter::clients::h3init
