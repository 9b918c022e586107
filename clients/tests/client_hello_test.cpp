// The ClientHello OpenSSL writes through memory BIOs: one whole handshake record, carrying
// the ALPN and SNI it was asked for.
#include "loiter/clients/tls/client_hello.hpp"

#include <gtest/gtest.h>

namespace loiter::clients {
namespace {

// One TLS handshake record: type 0x16, version 0x03 0x0?, its declared length the rest.
TEST(ClientHello, IsOneHandshakeRecordOfItsDeclaredLength) {
  const auto hello = client_hello({});
  ASSERT_GT(hello.size(), kTlsRecordHeaderSize);
  EXPECT_EQ(static_cast<unsigned char>(hello[0]), 0x16);
  EXPECT_EQ(static_cast<unsigned char>(hello[1]), 0x03);
  EXPECT_EQ(tls_record_length(hello), hello.size() - kTlsRecordHeaderSize);
  EXPECT_EQ(static_cast<unsigned char>(hello[5]), 0x01);  // handshake type: client_hello
}

// The protocols offered and the server name appear in the hello's extensions.
TEST(ClientHello, CarriesTheAlpnAndTheServerNameAskedFor) {
  const auto hello = client_hello({.alpn = {"h2", "http/1.1"}, .server_name = "loiter.test"});
  EXPECT_NE(hello.find("\x08http/1.1"), std::string::npos);
  EXPECT_NE(hello.find("\x02h2"), std::string::npos);
  EXPECT_NE(hello.find("loiter.test"), std::string::npos);
  const auto without = client_hello({.alpn = {}, .server_name = ""});
  EXPECT_EQ(without.find("http/1.1"), std::string::npos);
}

// A protocol name ALPN cannot carry is refused with the reason.
TEST(ClientHello, RefusesAnEmptyAlpnProtocol) {
  EXPECT_THROW(client_hello({.alpn = {""}}), std::runtime_error);
}

// A record header's length field; too short a prefix declares nothing.
TEST(ClientHello, ReadsTheRecordLengthFromItsHeader) {
  EXPECT_EQ(tls_record_length(std::string("\x16\x03\x01\x01\x02", 5)), 0x0102u);
  EXPECT_EQ(tls_record_length("\x16\x03"), 0u);
}

}  // namespace
}  // namespace loiter::clients
