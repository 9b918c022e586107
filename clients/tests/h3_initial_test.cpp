// The hand-made QUIC Initials of h3-initial-stall and h3-amplification: key derivation and
// packet protection against RFC 9001 Appendix A's vectors (unit), then both kinds against
// gtlsserver, ngtcp2's example server (end to end, label h3).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ip/udp.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "gtlsserver_peer.hpp"
#include "h3/initial/initial_keys.hpp"
#include "h3/initial/initial_packet.hpp"
#include "h3/initial/quic_client_hello.hpp"
#include "h3/initial/transport_params.hpp"
#include "loiter/clients/h3/stalls.hpp"

namespace loiter::clients::h3init {
namespace {

Bytes hex(std::string_view text) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    out.push_back(
        static_cast<std::uint8_t>(std::stoi(std::string(text.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

template <std::size_t N>
Bytes bytes_of(const std::array<std::uint8_t, N>& array) {
  return Bytes(array.begin(), array.end());
}

// RFC 9001 A.1: the client's Destination Connection ID every vector derives from.
const Bytes kDcid = hex("8394c8f03e515708");

// A.2: the CRYPTO frame carrying the example ClientHello (then 917 bytes of PADDING).
constexpr std::string_view kClientFrames =
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e868"
    "04fe3a47f06a2b69484c00000413011302010000c000000010000e00000b6578"
    "616d706c652e636f6dff01000100000a00080006001d00170018001000070005"
    "04616c706e000500050100000000003300260024001d00209370b2c9caa47fba"
    "baf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b000302030400"
    "0d0010000e0403050306030203080408050806002d00020101001c0002400100"
    "3900320408ffffffffffffffff05048000ffff07048000ffff08011001048000"
    "75300901100f088394c8f03e51570806048000ffff";

// A.2: the whole protected client Initial (1200 bytes).
constexpr std::string_view kClientPacket =
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11"
    "d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27cd449f63300099f399"
    "1c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c"
    "8eb7539ec4d4905fed1bee1fc8aafba17c750e2c7ace01e6005f80fcb7df6212"
    "30c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5"
    "457afd84d05dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c208"
    "4dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948838a3aec"
    "4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3"
    "485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc3dd60bc8e30c5c4287e53805db"
    "059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c"
    "7b4378e846d29f37ed7b4ea9ec5d82e7961b7f25a9323851f681d582363aa5f8"
    "9937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556"
    "be52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c74"
    "68449a13d8e3b95811a198f3491de3e7fe942b330407abf82a4ed7c1b311663a"
    "c69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00"
    "f064c99e3dd97911d39fe9c5d0b23a229a234cb36186c4819e8b9c5927726632"
    "291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe58964"
    "25c5bac4aee82e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd"
    "14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f58891ff"
    "ef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198"
    "e3fc433f9f2541010ae17c1bf202580f6047472fb36857fe843b19f5984009dd"
    "c324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73"
    "203a4a13e96f5432ec0fd4a1ee65accdd5e3904df54c1da510b0ff20dcc0c77f"
    "cb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450e"
    "fc60ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03ade"
    "a2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f296bfb5e724047"
    "90a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2"
    "162f40a29f0c3c8745c0f50fba3852e566d44575c29d39a03f0cda721984b6f4"
    "40591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca0"
    "6948109f23f350db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e"
    "8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f76f0"
    "be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f09400"
    "54da48781893a7e49ad5aff4af300cd804a6b6279ab3ff3afb64491c85194aab"
    "760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9"
    "f96f3ca9ec1dde434da7d2d392b905ddf3d1f9af93d1af5950bd493f5aa731b4"
    "056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd4684064"
    "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241"
    "e221af44860018ab0856972e194cd934";

// A.3: the server's Initial (packet number 1): an ACK of packet 0 and a CRYPTO frame
// holding its ServerHello, and the packet protected.
constexpr std::string_view kServerHeader = "c1000000010008f067a5502a4262b50040750001";
constexpr std::string_view kServerFrames =
    "02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739"
    "88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94"
    "0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00"
    "020304";
constexpr std::string_view kServerPacket =
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a"
    "5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3"
    "dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84"
    "022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4"
    "2158407dd074ee";

// A.1: the initial secret, then each side's secret, key, IV and header protection key.
TEST(H3InitialKeys, DeriveRfc9001AppendixA1) {
  EXPECT_EQ(hkdf_extract(kInitialSalt, kDcid),
            hex("7db5df06e7a69e432496adedb00851923595221596ae2ae9fb8115c1e9ed0a44"));
  const auto client = initial_keys(kDcid, /*client=*/true);
  EXPECT_EQ(client.secret, hex("c00cf151ca5be075ed0ebfb5c80323c42d6b7db67881289af4008f1f6c357aea"));
  EXPECT_EQ(bytes_of(client.key), hex("1f369613dd76d5467730efcbe3b1a22d"));
  EXPECT_EQ(bytes_of(client.iv), hex("fa044b2f42a3fd3b46fb255c"));
  EXPECT_EQ(bytes_of(client.hp), hex("9f50449e04a0e810283a1e9933adedd2"));
  const auto server = initial_keys(kDcid, /*client=*/false);
  EXPECT_EQ(server.secret, hex("3c199828fd139efd216c155ad844cc81fb82fa8d7446fa7d78be803acdda951b"));
  EXPECT_EQ(bytes_of(server.key), hex("cf3a5331653c364c88f0f379b6067e37"));
  EXPECT_EQ(bytes_of(server.iv), hex("0ac1493ca1905853b0bba03e"));
  EXPECT_EQ(bytes_of(server.hp), hex("c206b8d9b9f0f37644430b490eeaa314"));
}

// A.2: the client Initial (packet number 2 in four bytes, padded to 1200) protects to the
// RFC's bytes, header protection included, and opens back.
TEST(H3InitialKeys, ProtectTheClientInitialOfRfc9001AppendixA2) {
  const auto keys = initial_keys(kDcid, /*client=*/true);
  const InitialHeader header{.dcid = kDcid, .packet_number = 2, .packet_number_length = 4};
  const Bytes payload = padded_payload(header, hex(kClientFrames));
  EXPECT_EQ(payload.size(), 1162U);
  EXPECT_EQ(initial_header(header, payload.size()),
            hex("c300000001088394c8f03e5157080000449e00000002"));
  const Bytes packet = protect_initial(keys, header, payload);
  EXPECT_EQ(packet.size(), kMinInitialDatagram);
  EXPECT_EQ(packet, hex(kClientPacket));

  const auto opened = open_initial(keys, packet);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->packet_number, 2U);
  EXPECT_EQ(opened->payload, payload);
  EXPECT_EQ(opened->size, packet.size());
  const auto frames = parse_frames(opened->payload);
  EXPECT_FALSE(frames.malformed);
  EXPECT_EQ(frames.crypto_bytes, 241U);
  EXPECT_EQ(frames.padding, 917U);
}

// A.3: the server's Initial opens with the server keys of the client's DCID; its frames are
// an ACK of packet 0 and 90 bytes of CRYPTO. Tampered, it does not open.
TEST(H3InitialKeys, OpenTheServerInitialOfRfc9001AppendixA3) {
  const auto keys = initial_keys(kDcid, /*client=*/false);
  const Bytes packet = hex(kServerPacket);
  const auto opened = open_initial(keys, packet);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->packet_number, 1U);
  EXPECT_EQ(opened->header, hex(kServerHeader));
  EXPECT_EQ(opened->payload, hex(kServerFrames));
  const auto frames = parse_frames(opened->payload);
  EXPECT_FALSE(frames.malformed);
  EXPECT_TRUE(frames.ack);
  EXPECT_EQ(frames.acked, (std::vector<AckRange>{{0, 0}}));
  EXPECT_TRUE(frames.acknowledges(0));
  EXPECT_FALSE(frames.acknowledges(1));
  EXPECT_EQ(frames.crypto_bytes, 90U);

  const auto read = read_datagram(keys, packet);
  ASSERT_EQ(read.size(), 1U);
  EXPECT_EQ(read[0].type, ServerPacket::Type::initial);
  EXPECT_EQ(read[0].scid, hex("f067a5502a4262b5"));
  ASSERT_TRUE(read[0].frames);

  Bytes tampered = packet;
  tampered.back() ^= 1;
  EXPECT_FALSE(open_initial(keys, tampered));
  EXPECT_FALSE(open_initial(initial_keys(hex("0001020304050607"), false), packet));
}

// ACK ranges below the first (gap, length pairs), CONNECTION_CLOSE with its reason.
TEST(H3InitialFrames, ReadAckRangesAndAConnectionClose) {
  // ACK largest 7, delay 0, 1 more range, first range 1 (6..7); gap 1, length 2: 1..3.
  const auto frames =
      parse_frames(hex("0207000101010201"
                       "1c0a0003616263"));
  EXPECT_FALSE(frames.malformed);
  EXPECT_EQ(frames.acked, (std::vector<AckRange>{{6, 7}, {1, 3}}));
  EXPECT_TRUE(frames.ping);
  ASSERT_TRUE(frames.close);
  EXPECT_EQ(frames.close->code, 0x0aU);
  EXPECT_FALSE(frames.close->application);
  EXPECT_EQ(frames.close->reason, "abc");
  EXPECT_TRUE(parse_frames(hex("08")).malformed);  // a STREAM frame has no place here
}

// A short-header datagram is a stateless reset unless it is addressed to the client's SCID
// (a server's 0.5-RTT packet); too short, or a long header, it is neither.
TEST(H3InitialFrames, TellAStatelessResetFromAShortHeaderPacketToTheClient) {
  const Bytes scid = hex("0102030405060708");
  Bytes reset = hex("5f0a0b0c0d0e0f10111213141516171819202122232425");
  EXPECT_TRUE(looks_like_stateless_reset(reset, scid));
  Bytes to_client = reset;
  std::copy(scid.begin(), scid.end(), to_client.begin() + 1);
  EXPECT_FALSE(looks_like_stateless_reset(to_client, scid));
  EXPECT_FALSE(looks_like_stateless_reset(Bytes(reset.begin(), reset.begin() + 20), scid));
  reset[0] = 0xc0;
  EXPECT_FALSE(looks_like_stateless_reset(reset, scid));
}

// The hand-made ClientHello: a handshake message of its declared length, with ALPN h3,
// the server name, and the transport parameters naming the client's SCID.
TEST(H3InitialHello, CarriesAlpnSniAndTheTransportParameters) {
  const Bytes scid = hex("0102030405060708");
  const Bytes hello = quic_client_hello("loiter.test", scid);
  ASSERT_GT(hello.size(), 4U);
  EXPECT_EQ(hello[0], 0x01);
  EXPECT_EQ((std::size_t{hello[1]} << 16) | (std::size_t{hello[2]} << 8) | hello[3],
            hello.size() - 4);
  const std::string text(hello.begin(), hello.end());
  EXPECT_NE(text.find("\x02h3"), std::string::npos);
  EXPECT_NE(text.find("loiter.test"), std::string::npos);
  Bytes tp_scid = {0x0f, 0x08};
  tp_scid.insert(tp_scid.end(), scid.begin(), scid.end());
  EXPECT_NE(text.find(std::string(tp_scid.begin(), tp_scid.end())), std::string::npos);
  EXPECT_LT(hello.size(), 400U);                             // one Initial carries it whole
  EXPECT_NE(quic_client_hello("loiter.test", scid), hello);  // fresh random and key
}

// Every length in the hello adds up: the message's, each vector's, each extension's and the
// lists inside the extensions the server reads first (a wrong one is a decode_error alert).
TEST(H3InitialHello, EveryLengthAddsUp) {
  const Bytes scid = hex("0102030405060708");
  const Bytes hello = quic_client_hello("localhost", scid);
  std::size_t at = 4;
  auto u8 = [&] { return std::size_t{hello.at(at++)}; };
  auto u16 = [&] {
    const std::size_t high = u8();
    return (high << 8) | u8();
  };
  EXPECT_EQ(u16(), 0x0303U);
  at += 32;              // random
  EXPECT_EQ(u8(), 0U);   // legacy_session_id: empty (RFC 9001 8.4)
  EXPECT_EQ(u16(), 6U);  // three TLS 1.3 suites
  at += 6;
  EXPECT_EQ(u8(), 1U);  // compression: null
  EXPECT_EQ(u8(), 0U);
  const std::size_t extensions_end = u16() + at;
  EXPECT_EQ(extensions_end, hello.size());
  std::vector<std::size_t> seen;
  // Each round consumes at least four bytes: at most hello.size() / 4 rounds.
  while (at < extensions_end) {
    const std::size_t type = u16();
    const std::size_t length = u16();
    const std::size_t end = at + length;
    ASSERT_LE(end, extensions_end) << "extension " << type;
    seen.push_back(type);
    if (type == 0x0000 || type == 0x000a || type == 0x000d || type == 0x0010 || type == 0x0033) {
      EXPECT_EQ(u16() + 2, length) << "the list inside extension " << type;
    } else if (type == 0x002b) {
      EXPECT_EQ(u8() + 1, length);
    } else if (type == 0x0039) {
      // Transport parameters: id, length, value, each parameter whole.
      const auto params = std::span(hello).subspan(at, length);
      std::size_t p = 0;
      std::optional<Bytes> initial_scid;
      while (p < params.size()) {
        const auto id = get_varint(params, p);
        const auto size = get_varint(params, p);
        ASSERT_TRUE(id && size);
        ASSERT_LE(p + *size, params.size());
        if (*id == 0x0f) initial_scid = Bytes(params.begin() + p, params.begin() + p + *size);
        p += *size;
      }
      EXPECT_EQ(initial_scid, scid);
    }
    at = end;
  }
  EXPECT_EQ(at, hello.size());
  EXPECT_EQ(seen,
            (std::vector<std::size_t>{0x0000, 0x000a, 0x000d, 0x0010, 0x002b, 0x0033, 0x0039}));
}

TEST(H3InitialVarint, RoundTripsEachLength) {
  for (const std::uint64_t value :
       {0ULL, 63ULL, 64ULL, 16383ULL, 16384ULL, (1ULL << 30) - 1, 1ULL << 30, (1ULL << 62) - 1}) {
    Bytes out;
    put_varint(out, value);
    std::size_t at = 0;
    EXPECT_EQ(get_varint(out, at), value);
    EXPECT_EQ(at, out.size());
  }
  // RFC 9000 A.1's examples.
  std::size_t at = 0;
  EXPECT_EQ(get_varint(hex("c2197c5eff14e88c"), at), 151288809941952652ULL);
  at = 0;
  EXPECT_EQ(get_varint(hex("9d7f3e7d"), at), 494878333ULL);
}

// What a fleet cannot do is refused before anything is sent: a target off loopback, an SNI
// longer than TLS allows.
TEST(H3InitialSpawn, RefusesARemoteTargetAndAnOverlongServerName) {
  asio::io_context io;
  std::vector<ConnectionRecord> out;
  H3Options options;
  options.fleet.target = tcp::endpoint(asio::ip::make_address("192.0.2.1"), 443);
  EXPECT_THROW(spawn_h3_initial_stall(io, options, out), std::invalid_argument);
  EXPECT_THROW(spawn_h3_amplification(io, options, out), std::invalid_argument);
  options.fleet.target = tcp::endpoint(asio::ip::make_address("127.0.0.1"), 443);
  options.server_name.assign(256, 'a');
  EXPECT_THROW(spawn_h3_initial_stall(io, options, out), std::invalid_argument);
}

using testing::GtlsServer;

H3Options options_for(unsigned short port, Duration patience) {
  H3Options options;
  options.fleet.target = tcp::endpoint(asio::ip::make_address("127.0.0.1"), port);
  options.fleet.count = 1;
  options.fleet.patience = patience;
  options.fleet.pacing.start = Clock::now();
  return options;
}

std::vector<ConnectionRecord> run(void (*spawn)(asio::io_context&, const H3Options&,
                                                std::vector<ConnectionRecord>&),
                                  const H3Options& options) {
  asio::io_context io;
  std::vector<ConnectionRecord> out;
  spawn(io, options, out);
  io.run();
  return out;
}

double ms(Duration duration) { return std::chrono::duration<double, std::milli>(duration).count(); }

std::string describe(const ConnectionRecord& record) {
  std::ostringstream out;
  const H3Record& h3 = *record.h3;
  out << "ending " << to_string(record.ending) << " at " << ms(record.ended_at) << " ms; sent "
      << h3.datagrams_sent << " datagrams / " << h3.bytes_sent << " bytes; received "
      << h3.datagrams_received << " / " << h3.bytes_received << " bytes; remembered "
      << static_cast<int>(h3.remembered);
  for (const auto& probe : h3.probes) {
    out << "; probe at " << ms(probe.at) << " ms answered "
        << (probe.answered ? std::to_string(ms(*probe.answered)) + " ms" : "never");
  }
  if (h3.close) out << "; close " << h3.close->code << " " << h3.close->reason;
  if (!record.error.empty()) out << "; error " << record.error;
  return out.str();
}

// gtlsserver's handshake timeout is 2 s: a probe 1 s after the truncated Initial finds the
// half-open connection held (the ACK covers packets 0 and 1, from the same server SCID).
TEST(H3InitialEndToEnd, InitialStallProbedBeforeTheHandshakeTimeoutIsRemembered) {
  GtlsServer server({"--handshake-timeout=2s", "--timeout=30s"});
  ASSERT_TRUE(server.listening());
  auto options = options_for(server.port(), std::chrono::seconds(10));
  options.probe_after = std::chrono::seconds(1);
  const auto records = run(&spawn_h3_initial_stall, options);
  ASSERT_EQ(records.size(), 1U);
  const auto& record = records[0];
  std::cout << "h3-initial-stall, probe at 1 s: " << describe(record) << "\n";
  EXPECT_EQ(record.kind, kH3InitialStall);
  ASSERT_TRUE(record.h3);
  EXPECT_FALSE(record.h3->handshake_done);
  EXPECT_EQ(record.h3->remembered, H3Remembered::remembered);
  EXPECT_EQ(record.ending, Ending::open);
  ASSERT_EQ(record.h3->probes.size(), 1U);
  EXPECT_TRUE(record.h3->probes[0].answered);
  EXPECT_EQ(record.ended_at, *record.h3->probes[0].answered);
  EXPECT_GE(record.h3->probes[0].at, std::chrono::seconds(1));
  // The last packet before the probe is the first Initial, sent at connect_start.
  EXPECT_EQ(record.h3->last_sent, Duration{});
  EXPECT_EQ(record.h3->bytes_sent, 2 * kMinInitialDatagram);
  EXPECT_NE(record.source.find("127."), std::string::npos);
}

// Past its 2 s handshake timeout gtlsserver does not forget the half-open connection
// silently: it sends a CONNECTION_CLOSE (PROTOCOL_VIOLATION, 0x0a, seen with ngtcp2 0.12.1)
// in an Initial, so a probe due at 4 s is never sent: the close ends the connection.
TEST(H3InitialEndToEnd, InitialStallPastTheHandshakeTimeoutIsClosedBeforeTheProbe) {
  GtlsServer server({"--handshake-timeout=2s", "--timeout=30s"});
  ASSERT_TRUE(server.listening());
  auto options = options_for(server.port(), std::chrono::seconds(15));
  options.probe_after = std::chrono::seconds(4);
  const auto records = run(&spawn_h3_initial_stall, options);
  ASSERT_EQ(records.size(), 1U);
  const auto& record = records[0];
  std::cout << "h3-initial-stall, probe due at 4 s: " << describe(record) << "\n";
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::close);
  ASSERT_TRUE(record.h3->close);
  EXPECT_FALSE(record.h3->close->application);
  EXPECT_EQ(record.h3->close->code, 0x0aU);
  EXPECT_GE(record.ended_at, std::chrono::milliseconds(1900));
  EXPECT_LT(record.ended_at, std::chrono::seconds(4));
  EXPECT_TRUE(record.h3->probes.empty());
  EXPECT_EQ(record.h3->remembered, H3Remembered::unknown);
}

// A server that lost the connection without a word (here: gtlsserver restarted on the same
// port 0.5 s after the first Initial): the probe at 2 s reaches a process that never saw
// packet 0, so its answer is a new connection's (another SCID, an ACK of packet 1 alone)
// or nothing at all: forgotten or silent, Ending::gone at the probe's send.
TEST(H3InitialEndToEnd, InitialStallProbedAfterTheServerLostItIsForgotten) {
  GtlsServer server({"--handshake-timeout=10s", "--timeout=30s"});
  ASSERT_TRUE(server.listening());
  auto options = options_for(server.port(), std::chrono::seconds(10));
  options.probe_after = std::chrono::seconds(2);
  std::thread restarter([&server] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    server.restart();
  });
  const auto records = run(&spawn_h3_initial_stall, options);
  restarter.join();
  ASSERT_EQ(records.size(), 1U);
  const auto& record = records[0];
  std::cout << "h3-initial-stall, server restarted, probe at 2 s: " << describe(record) << "\n";
  ASSERT_TRUE(record.h3);
  EXPECT_TRUE(record.h3->remembered == H3Remembered::forgotten ||
              record.h3->remembered == H3Remembered::silent);
  EXPECT_EQ(record.ending, Ending::gone);
  ASSERT_EQ(record.h3->probes.size(), 1U);
  EXPECT_EQ(record.ended_at, record.h3->probes[0].at);
}

// Without probe_after the stall waits out its patience: still open then (gtlsserver's
// handshake timeout, 10 s, is further off), the server's ACK of the first Initial heard.
TEST(H3InitialEndToEnd, InitialStallWithoutAProbeIsOpenAtPatience) {
  GtlsServer server({"--handshake-timeout=10s", "--timeout=30s"});
  ASSERT_TRUE(server.listening());
  const auto options = options_for(server.port(), std::chrono::seconds(2));
  const auto records = run(&spawn_h3_initial_stall, options);
  ASSERT_EQ(records.size(), 1U);
  const auto& record = records[0];
  std::cout << "h3-initial-stall, no probe: " << describe(record) << "\n";
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::open);
  EXPECT_GE(record.ended_at, std::chrono::seconds(2));
  EXPECT_TRUE(record.h3->probes.empty());
  EXPECT_EQ(record.h3->remembered, H3Remembered::unknown);
  EXPECT_GE(record.h3->datagrams_received, 1U);
  EXPECT_EQ(record.h3->datagrams_sent, 1U);
}

// One whole Initial, then silence: the server sends at most 3× what it received before the
// client's address is validated (RFC 9000 8.1), then stops.
TEST(H3InitialEndToEnd, AmplificationStaysWithinThreeTimesTheClientsBytes) {
  GtlsServer server({"--handshake-timeout=10s", "--timeout=30s"});
  ASSERT_TRUE(server.listening());
  const auto options = options_for(server.port(), std::chrono::seconds(20));
  const auto records = run(&spawn_h3_amplification, options);
  ASSERT_EQ(records.size(), 1U);
  const auto& record = records[0];
  std::cout << "h3-amplification: " << describe(record) << "; unvalidated "
            << record.h3->unvalidated_received << " of " << record.h3->unvalidated_sent << "\n";
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.h3->unvalidated_sent, kMinInitialDatagram);
  EXPECT_GT(record.h3->unvalidated_received, 0U);
  EXPECT_LE(record.h3->unvalidated_received, 3 * record.h3->unvalidated_sent);
  EXPECT_EQ(record.ending, Ending::gone);
  EXPECT_FALSE(record.h3->handshake_done);
}

}  // namespace
}  // namespace loiter::clients::h3init
