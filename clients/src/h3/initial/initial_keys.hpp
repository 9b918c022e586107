// The QUIC v1 Initial keys (RFC 9001 5.2) and their two uses: AEAD payload protection
// (AES-128-GCM, 5.3) and header protection (AES-128-ECB, 5.4). Built on libcrypto alone:
// the hand-made Initials of h3-initial-stall and h3-amplification stop mid-handshake,
// which no QUIC library would do. Private to loiter::clients_h3_initial.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace loiter::clients::h3init {

using Bytes = std::vector<std::uint8_t>;

// RFC 9001 5.2: the QUIC v1 salt.
inline constexpr std::array<std::uint8_t, 20> kInitialSalt = {
    0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
    0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};

inline constexpr std::size_t kAeadTagSize = 16;   // AES-128-GCM's tag
inline constexpr std::size_t kHpSampleSize = 16;  // header protection's sample

// One direction's packet protection keys.
struct InitialKeys {
  Bytes secret;  // client_initial_secret or server_initial_secret (32 bytes)
  std::array<std::uint8_t, 16> key{};
  std::array<std::uint8_t, 12> iv{};
  std::array<std::uint8_t, 16> hp{};
};

// HKDF-Extract(salt, ikm) with SHA-256 (EVP_KDF "HKDF", extract only).
Bytes hkdf_extract(std::span<const std::uint8_t> salt, std::span<const std::uint8_t> ikm);
// HKDF-Expand-Label(secret, label, "", length) of TLS 1.3 (RFC 8446 7.1), SHA-256.
Bytes hkdf_expand_label(std::span<const std::uint8_t> secret, std::string_view label,
                        std::size_t length);

// The client's ("client in") or the server's ("server in") Initial keys for the client's
// first Destination Connection ID. Throws std::runtime_error if libcrypto fails.
InitialKeys initial_keys(std::span<const std::uint8_t> dcid, bool client);

// AES-128-GCM with the nonce iv XOR packet number (RFC 9001 5.3): the ciphertext with its
// tag appended.
Bytes seal(const InitialKeys& keys, std::uint64_t packet_number,
           std::span<const std::uint8_t> header, std::span<const std::uint8_t> plaintext);
// The plaintext, or nullopt when the tag does not verify (a packet not for these keys).
std::optional<Bytes> open(const InitialKeys& keys, std::uint64_t packet_number,
                          std::span<const std::uint8_t> header,
                          std::span<const std::uint8_t> ciphertext_and_tag);

// AES-128-ECB(hp, sample): the five mask bytes header protection uses (RFC 9001 5.4.3).
std::array<std::uint8_t, 5> header_mask(const InitialKeys& keys,
                                        std::span<const std::uint8_t> sample);

// Cryptographically random bytes (RAND_bytes): connection IDs, the ClientHello's random.
Bytes random_bytes(std::size_t count);

}  // namespace loiter::clients::h3init
