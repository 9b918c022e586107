// QUIC packet protection (RFC 9001 5) for either AEAD a QUIC v1 handshake commonly settles
// on: AES-128-GCM (TLS_AES_128_GCM_SHA256, the Initials' own) and ChaCha20-Poly1305
// (TLS_CHACHA20_POLY1305_SHA256), with their header protection (AES-128-ECB, ChaCha20).
// Keys come from a traffic secret ("quic key", "quic iv", "quic hp"; both suites hash with
// SHA-256). The hand-made Initials use it with the Initial secrets, the h3 floods' own 1-RTT
// packets with the client's and the server's application traffic secrets. libcrypto alone.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "h3/initial/initial_keys.hpp"

namespace loiter::clients::h3init {

enum class Aead : std::uint8_t { aes_128_gcm, chacha20_poly1305 };

// One direction's keys for one AEAD.
struct PacketKeys {
  Aead aead = Aead::aes_128_gcm;
  Bytes key;  // 16 bytes (AES-128-GCM) or 32 (ChaCha20-Poly1305)
  std::array<std::uint8_t, 12> iv{};
  Bytes hp;  // as long as key
};

// The keys of a traffic secret (RFC 9001 5.1).
PacketKeys packet_keys(Aead aead, std::span<const std::uint8_t> secret);

// The AEAD with the nonce iv XOR packet number (RFC 9001 5.3): ciphertext and tag (16 bytes).
Bytes aead_seal(const PacketKeys& keys, std::uint64_t packet_number,
                std::span<const std::uint8_t> header, std::span<const std::uint8_t> plaintext);
// The plaintext, or nullopt when the tag does not verify.
std::optional<Bytes> aead_open(const PacketKeys& keys, std::uint64_t packet_number,
                               std::span<const std::uint8_t> header,
                               std::span<const std::uint8_t> ciphertext_and_tag);
// The five mask bytes of header protection for a 16-byte sample (RFC 9001 5.4.3, 5.4.4).
std::array<std::uint8_t, 5> protection_mask(const PacketKeys& keys,
                                            std::span<const std::uint8_t> sample);

}  // namespace loiter::clients::h3init
