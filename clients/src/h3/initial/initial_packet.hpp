// Client Initial packets built by hand (RFC 9000 17.2.2, protected as RFC 9001 5), and the
// server's datagrams read back: its Initial packets unprotected and their frames parsed
// (ACK, CRYPTO, CONNECTION_CLOSE, PADDING, PING); Handshake, 0-RTT, Retry and Version
// Negotiation packets are only named and counted, never decrypted: the client never gets
// that far. Private to loiter::clients_h3_initial.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "h3/initial/initial_keys.hpp"

namespace loiter::clients::h3init {

// RFC 9000 14.1: a client's datagram carrying an Initial is at least this large.
inline constexpr std::size_t kMinInitialDatagram = 1200;
// RFC 9000 10.3: the smallest datagram that can be a stateless reset.
inline constexpr std::size_t kMinStatelessReset = 21;

// The fields of one client Initial before protection.
struct InitialHeader {
  Bytes dcid;
  Bytes scid;
  std::uint64_t packet_number = 0;
  std::size_t packet_number_length = 2;  // 1 to 4 bytes on the wire
};

// The header's unprotected bytes for a payload (frames) of `payload_size` bytes: first
// byte, version 1, the connection IDs, an empty token, a two-byte Length, the packet number.
Bytes initial_header(const InitialHeader& header, std::size_t payload_size);

// The protected packet: header and payload sealed with `keys`, then header protection.
Bytes protect_initial(const InitialKeys& keys, const InitialHeader& header,
                      std::span<const std::uint8_t> payload);

// `frames` followed by PADDING frames (zeros) so the protected packet is exactly
// `datagram` bytes; throws std::invalid_argument if the frames alone do not fit.
Bytes padded_payload(const InitialHeader& header, Bytes frames,
                     std::size_t datagram = kMinInitialDatagram);

// Frames a client Initial carries.
void put_crypto_frame(Bytes& out, std::uint64_t offset, std::span<const std::uint8_t> data);
void put_ping_frame(Bytes& out);

// A range of packet numbers an ACK frame acknowledges, both ends included.
struct AckRange {
  std::uint64_t smallest = 0;
  std::uint64_t largest = 0;
  bool operator==(const AckRange&) const = default;
};

struct ConnectionClose {
  std::uint64_t code = 0;
  bool application = false;  // frame type 0x1d
  std::string reason;
};

// What the frames of one Initial said.
struct InitialFrames {
  std::vector<AckRange> acked;  // every ACK frame's ranges, largest first
  bool ack = false;
  bool ping = false;
  std::size_t crypto_bytes = 0;  // CRYPTO data bytes (the server's TLS messages)
  std::size_t padding = 0;       // PADDING bytes
  std::optional<ConnectionClose> close;
  bool malformed = false;  // a frame it could not read, or one not allowed here

  bool acknowledges(std::uint64_t packet_number) const;
};

// One packet of a server datagram (datagrams may coalesce several, RFC 9000 12.2).
struct ServerPacket {
  enum class Type { initial, zero_rtt, handshake, retry, version_negotiation, short_header };
  Type type = Type::initial;
  Bytes dcid;
  Bytes scid;
  std::size_t size = 0;
  std::uint64_t packet_number = 0;      // Initial only, once unprotected
  std::optional<InitialFrames> frames;  // Initial only; nullopt: it did not decrypt
};

// Splits a server datagram into its packets; Initials are opened with `server_keys` (of
// the client's original DCID). Stops at the first packet it cannot delimit.
std::vector<ServerPacket> read_datagram(const InitialKeys& server_keys,
                                        std::span<const std::uint8_t> datagram);

// A datagram that looks like a stateless reset (RFC 9000 10.3): a short header (form bit
// 0, fixed bit 1), at least kMinStatelessReset bytes, and not addressed to the client's
// SCID. A server whose handshake flight went whole (h3-amplification) may send 1-RTT
// packets before the client finished (0.5-RTT data: quic-go's SETTINGS), and those carry
// the client's SCID as their DCID; a reset's bytes after the first are unpredictable, so
// they match it by chance once in 2^64. Its token is not checked (the client never
// learned one).
bool looks_like_stateless_reset(std::span<const std::uint8_t> datagram,
                                std::span<const std::uint8_t> client_scid);

// Unprotects one Initial packet that begins `packet` (header protection, then AEAD): the
// packet number and the plaintext payload; nullopt if it does not open. Exposed for tests.
struct OpenedInitial {
  std::uint64_t packet_number = 0;
  Bytes header;          // unprotected
  Bytes payload;         // plaintext frames
  std::size_t size = 0;  // the packet's whole length within the datagram
};
std::optional<OpenedInitial> open_initial(const InitialKeys& keys,
                                          std::span<const std::uint8_t> packet);

// Parses an Initial's plaintext frames.
InitialFrames parse_frames(std::span<const std::uint8_t> payload);

}  // namespace loiter::clients::h3init
