#include "h3/initial/packet_protection.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace loiter::clients::h3init {

namespace protection_detail {

[[noreturn]] void fail(std::string_view what) {
  const unsigned long code = ERR_get_error();
  const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
  ERR_clear_error();
  throw std::runtime_error(std::string(what) + ": " + (reason ? reason : "no reason given"));
}

struct CipherFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherFree>;

const EVP_CIPHER* aead_cipher(Aead aead) {
  return aead == Aead::aes_128_gcm ? EVP_aes_128_gcm() : EVP_chacha20_poly1305();
}

std::array<std::uint8_t, 12> nonce_for(const PacketKeys& keys, std::uint64_t packet_number) {
  auto nonce = keys.iv;
  for (std::size_t i = 0; i < 8; ++i) {
    nonce[nonce.size() - 1 - i] ^= static_cast<std::uint8_t>(packet_number >> (8 * i));
  }
  return nonce;
}

int int_size(std::size_t size) { return static_cast<int>(size); }

// An AEAD context keyed for one packet: encrypting or decrypting, the header as its AAD.
CipherCtx keyed(const PacketKeys& keys, std::uint64_t packet_number,
                std::span<const std::uint8_t> header, bool encrypt) {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  const auto nonce = nonce_for(keys, packet_number);
  if (!ctx ||
      EVP_CipherInit_ex(ctx.get(), aead_cipher(keys.aead), nullptr, nullptr, nullptr,
                        encrypt ? 1 : 0) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, int_size(nonce.size()), nullptr) !=
          1 ||
      EVP_CipherInit_ex(ctx.get(), nullptr, nullptr, keys.key.data(), nonce.data(),
                        encrypt ? 1 : 0) != 1) {
    fail("AEAD init");
  }
  int len = 0;
  if (EVP_CipherUpdate(ctx.get(), nullptr, &len, header.data(), int_size(header.size())) != 1) {
    fail("AEAD aad");
  }
  return ctx;
}

}  // namespace protection_detail

using namespace protection_detail;

PacketKeys packet_keys(Aead aead, std::span<const std::uint8_t> secret) {
  const std::size_t key_size = aead == Aead::aes_128_gcm ? 16 : 32;
  PacketKeys keys{.aead = aead,
                  .key = hkdf_expand_label(secret, "quic key", key_size),
                  .iv = {},
                  .hp = hkdf_expand_label(secret, "quic hp", key_size)};
  const Bytes iv = hkdf_expand_label(secret, "quic iv", keys.iv.size());
  std::copy(iv.begin(), iv.end(), keys.iv.begin());
  return keys;
}

Bytes aead_seal(const PacketKeys& keys, std::uint64_t packet_number,
                std::span<const std::uint8_t> header, std::span<const std::uint8_t> plaintext) {
  CipherCtx ctx = keyed(keys, packet_number, header, /*encrypt=*/true);
  Bytes out(plaintext.size() + kAeadTagSize);
  int len = 0;
  if (EVP_CipherUpdate(ctx.get(), out.data(), &len, plaintext.data(), int_size(plaintext.size())) !=
      1) {
    fail("AEAD encrypt");
  }
  int tail = 0;
  if (EVP_CipherFinal_ex(ctx.get(), out.data() + len, &tail) != 1) fail("AEAD final");
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, int_size(kAeadTagSize),
                          out.data() + plaintext.size()) != 1) {
    fail("AEAD tag");
  }
  return out;
}

std::optional<Bytes> aead_open(const PacketKeys& keys, std::uint64_t packet_number,
                               std::span<const std::uint8_t> header,
                               std::span<const std::uint8_t> ciphertext_and_tag) {
  if (ciphertext_and_tag.size() < kAeadTagSize) return std::nullopt;
  const std::size_t size = ciphertext_and_tag.size() - kAeadTagSize;
  CipherCtx ctx = keyed(keys, packet_number, header, /*encrypt=*/false);
  Bytes out(size);
  int len = 0;
  if (EVP_CipherUpdate(ctx.get(), out.data(), &len, ciphertext_and_tag.data(), int_size(size)) !=
      1) {
    ERR_clear_error();
    return std::nullopt;
  }
  Bytes tag(ciphertext_and_tag.begin() + static_cast<std::ptrdiff_t>(size),
            ciphertext_and_tag.end());
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, int_size(kAeadTagSize), tag.data()) !=
      1) {
    ERR_clear_error();
    return std::nullopt;
  }
  int tail = 0;
  if (EVP_CipherFinal_ex(ctx.get(), out.data() + len, &tail) != 1) {
    ERR_clear_error();
    return std::nullopt;  // the tag did not verify
  }
  return out;
}

std::array<std::uint8_t, 5> protection_mask(const PacketKeys& keys,
                                            std::span<const std::uint8_t> sample) {
  if (sample.size() < kHpSampleSize)
    throw std::invalid_argument("a header protection sample is 16 bytes");
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  std::array<std::uint8_t, 32> block{};
  int len = 0;
  if (keys.aead == Aead::aes_128_gcm) {
    // AES-128-ECB of the sample (RFC 9001 5.4.3).
    if (!ctx ||
        EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_ecb(), nullptr, keys.hp.data(), nullptr) != 1) {
      fail("AES-128-ECB init");
    }
    EVP_CIPHER_CTX_set_padding(ctx.get(), 0);
    if (EVP_EncryptUpdate(ctx.get(), block.data(), &len, sample.data(), int_size(kHpSampleSize)) !=
        1) {
      fail("AES-128-ECB encrypt");
    }
  } else {
    // ChaCha20 keyed by hp, counter the sample's first 4 bytes (little-endian), nonce its
    // other 12 (RFC 9001 5.4.4): OpenSSL's 16-byte IV is exactly the sample. The mask is the
    // key stream over five zero bytes.
    static constexpr std::array<std::uint8_t, 5> kZeros{};
    if (!ctx ||
        EVP_EncryptInit_ex(ctx.get(), EVP_chacha20(), nullptr, keys.hp.data(), sample.data()) !=
            1 ||
        EVP_EncryptUpdate(ctx.get(), block.data(), &len, kZeros.data(), int_size(kZeros.size())) !=
            1) {
      fail("ChaCha20 mask");
    }
  }
  return {block[0], block[1], block[2], block[3], block[4]};
}

}  // namespace loiter::clients::h3init
