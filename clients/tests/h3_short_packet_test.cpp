// loiter's own 1-RTT packets (the h3 floods' after their hand-over): key derivation, the
// AEAD, header protection and the short header against RFC 9001 Appendix A.5's
// ChaCha20-Poly1305 vector; AES-128-GCM round trips with Appendix A.1's client secret; the
// packet number's decoding (RFC 9000 A.3); and the frame walker and writers of
// loiter/quic/frames.hpp (RFC 9000 16's and 19's encodings).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "h3/initial/packet_protection.hpp"
#include "h3/initial/short_packet.hpp"
#include "loiter/quic/frames.hpp"

namespace loiter::clients::h3init {
namespace short_packet_test {

Bytes from_hex(std::string_view text) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    out.push_back(
        static_cast<std::uint8_t>(std::stoi(std::string(text.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

const Bytes kChaChaSecret =
    from_hex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
constexpr std::uint64_t kChaChaPacketNumber = 654360564;
const Bytes kChaChaPacket = from_hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb");

TEST(ShortPacket, ChaChaKeysAreRfc9001AppendixA5s) {
  const auto keys = packet_keys(Aead::chacha20_poly1305, kChaChaSecret);
  EXPECT_EQ(keys.key, from_hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8"));
  EXPECT_EQ(Bytes(keys.iv.begin(), keys.iv.end()), from_hex("e0459b3474bdd0e44a41c144"));
  EXPECT_EQ(keys.hp, from_hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4"));
  const auto mask = protection_mask(keys, from_hex("5e5cd55c41f69080575d7999c25a5bfb"));
  EXPECT_EQ(Bytes(mask.begin(), mask.end()), from_hex("aefefe7d03"));
}

TEST(ShortPacket, AChaChaPingIsRfc9001AppendixA5sPacket) {
  const auto keys = packet_keys(Aead::chacha20_poly1305, kChaChaSecret);
  const Bytes ping{0x01};
  const Bytes packet = protect_short(
      keys,
      ShortHeader{.dcid = {}, .packet_number = kChaChaPacketNumber, .packet_number_length = 3},
      ping);
  EXPECT_EQ(packet, kChaChaPacket);
}

TEST(ShortPacket, OpensRfc9001AppendixA5sPacket) {
  const auto keys = packet_keys(Aead::chacha20_poly1305, kChaChaSecret);
  const auto opened = open_short(keys, kChaChaPacket, 0, kChaChaPacketNumber - 1);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->packet_number, kChaChaPacketNumber);
  EXPECT_FALSE(opened->key_phase);
  EXPECT_EQ(opened->payload, Bytes{0x01});
  // One bit changed anywhere and it does not open.
  Bytes broken = kChaChaPacket;
  broken.back() ^= 0x01;
  EXPECT_FALSE(open_short(keys, broken, 0, kChaChaPacketNumber - 1));
  // Other keys: it does not open either.
  const auto other = packet_keys(Aead::aes_128_gcm, kChaChaSecret);
  EXPECT_FALSE(open_short(other, kChaChaPacket, 0, kChaChaPacketNumber - 1));
}

TEST(ShortPacket, AesGcmPacketsRoundTripWithTheirConnectionIdAndPacketNumber) {
  // RFC 9001 A.1's client_initial_secret, as a traffic secret of AES-128-GCM.
  const Bytes secret = from_hex("c00cf151ca5be075ed0ebfb5c80323c42d6b7db67881289af4008f1f6c357aea");
  const auto keys = packet_keys(Aead::aes_128_gcm, secret);
  EXPECT_EQ(keys.key, from_hex("1f369613dd76d5467730efcbe3b1a22d"));
  EXPECT_EQ(keys.hp, from_hex("9f50449e04a0e810283a1e9933adedd2"));
  const Bytes dcid = from_hex("0102030405060708");
  for (std::size_t length = 1; length <= 4; ++length) {
    const std::uint64_t number = 0x1234 + length;
    const Bytes payload{0x01, 0x00, 0x00};  // PING and PADDING
    const Bytes packet = protect_short(
        keys, ShortHeader{.dcid = dcid, .packet_number = number, .packet_number_length = length},
        payload);
    EXPECT_EQ(packet[0] & 0xc0, 0x40) << "a short header with its fixed bit";
    EXPECT_TRUE(std::equal(dcid.begin(), dcid.end(), packet.begin() + 1));
    const auto opened = open_short(keys, packet, dcid.size(), number - 1);
    ASSERT_TRUE(opened) << length;
    EXPECT_EQ(opened->packet_number, number);
    EXPECT_EQ(opened->payload, payload);
  }
}

TEST(ShortPacket, AOneBytePayloadIsPaddedForItsSample) {
  const auto keys = packet_keys(Aead::aes_128_gcm, kChaChaSecret);
  const Bytes packet = protect_short(
      keys, ShortHeader{.dcid = {}, .packet_number = 7, .packet_number_length = 1}, Bytes{0x01});
  const auto opened = open_short(keys, packet, 0, 6);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->payload, (Bytes{0x01, 0x00, 0x00}));  // PING, then PADDING
}

TEST(ShortPacket, PacketNumbersDecodeAsRfc9000AppendixA3) {
  // RFC 9000 A.3's example: largest 0xa82f30ea, truncated 0x9b32 in 16 bits.
  EXPECT_EQ(decode_packet_number(0xa82f30ea, 0x9b32, 16), 0xa82f9b32U);
  EXPECT_EQ(decode_packet_number(kChaChaPacketNumber - 1, 0x00bff4, 24), kChaChaPacketNumber);
  EXPECT_EQ(decode_packet_number(0, 1, 8), 1U);
  EXPECT_EQ(decode_packet_number(255, 2, 8), 258U);  // past the window's wrap
}

TEST(QuicFrames, VarintsAreRfc9000AppendixA1s) {
  struct Case {
    std::string_view wire;
    std::uint64_t value;
  };
  for (const Case& c :
       {Case{"c2197c5eff14e88c", 151288809941952652ULL}, Case{"9d7f3e7d", 494878333ULL},
        Case{"7bbd", 15293ULL}, Case{"25", 37ULL}}) {
    const Bytes wire = from_hex(c.wire);
    std::size_t pos = 0;
    EXPECT_EQ(quic::read_varint(wire, pos), c.value);
    EXPECT_EQ(pos, wire.size());
    Bytes out;
    quic::put_varint(out, c.value);
    EXPECT_EQ(out, wire);
  }
  std::size_t pos = 0;
  const Bytes cut = from_hex("9d7f3e");
  EXPECT_FALSE(quic::read_varint(cut, pos)) << "a varint that runs past the end";
}

TEST(QuicFrames, WhatTheWritersWriteTheWalkerReads) {
  Bytes payload;
  const Bytes data{'h', 'i'};
  const Bytes cid = from_hex("a1a2a3a4a5a6a7a8");
  const Bytes token(16, 0x5a);
  const Bytes challenge = from_hex("0011223344556677");
  quic::put_stream(payload, 4, 1000, data, /*fin=*/true);
  quic::put_reset_stream(payload, 8, 0x10c, 30);
  quic::put_new_connection_id(payload, 9, 9, cid, token);
  quic::put_path_challenge(payload, challenge);
  quic::put_crypto(payload, 1 << 20, data);
  quic::put_ping(payload);
  const quic::PacketRange ranges[] = {{.smallest = 10, .largest = 12},
                                      {.smallest = 3, .largest = 5}};
  quic::put_ack(payload, ranges);
  quic::put_application_close(payload, 0x107);
  payload.insert(payload.end(), 5, 0x00);  // PADDING
  bool whole = false;
  const auto frames = quic::frames_of(payload, &whole);
  EXPECT_TRUE(whole);
  ASSERT_EQ(frames.size(), 9U);
  EXPECT_TRUE(quic::is_stream_frame(frames[0].type));
  EXPECT_EQ(frames[0].stream, 4U);
  EXPECT_EQ(frames[0].offset, 1000U);
  EXPECT_TRUE(frames[0].fin);
  EXPECT_EQ(Bytes(frames[0].data.begin(), frames[0].data.end()), data);
  EXPECT_EQ(frames[1].type, quic::frame::kResetStream);
  EXPECT_EQ(frames[1].code, 0x10cU);
  EXPECT_EQ(frames[1].value, 30U);
  EXPECT_EQ(frames[2].type, quic::frame::kNewConnectionId);
  EXPECT_EQ(frames[2].value, 9U);
  EXPECT_EQ(frames[2].retire_prior_to, 9U);
  EXPECT_EQ(Bytes(frames[2].data.begin(), frames[2].data.end()), cid);
  EXPECT_EQ(frames[3].type, quic::frame::kPathChallenge);
  EXPECT_EQ(Bytes(frames[3].data.begin(), frames[3].data.end()), challenge);
  EXPECT_EQ(frames[4].type, quic::frame::kCrypto);
  EXPECT_EQ(frames[4].offset, 1U << 20);
  EXPECT_EQ(frames[5].type, quic::frame::kPing);
  EXPECT_EQ(frames[6].type, quic::frame::kAck);
  EXPECT_EQ(frames[6].value, 12U);
  EXPECT_EQ(frames[6].first_range, 2U);
  EXPECT_EQ(frames[6].range_count, 1U);
  EXPECT_EQ(frames[7].type, quic::frame::kApplicationClose);
  EXPECT_EQ(frames[7].code, 0x107U);
  EXPECT_EQ(frames[8].type, quic::frame::kPadding);
  EXPECT_EQ(frames[8].end - frames[8].begin, 5U);
}

TEST(QuicFrames, AFrameCutShortStopsTheWalk) {
  Bytes payload;
  quic::put_ping(payload);
  quic::put_crypto(payload, 0, Bytes(40, 0x01));
  payload.resize(payload.size() - 10);
  bool whole = true;
  const auto frames = quic::frames_of(payload, &whole);
  EXPECT_FALSE(whole);
  ASSERT_EQ(frames.size(), 1U);
  EXPECT_EQ(frames[0].type, quic::frame::kPing);
  const Bytes unknown{0x40, 0x99};  // frame type 0x99: none RFC 9000 knows
  EXPECT_TRUE(quic::frames_of(unknown).empty());
}

}  // namespace short_packet_test
}  // namespace loiter::clients::h3init
