// Clients refuse non-loopback targets and spread their sources over 127.0.0.2 upwards,
// each bound with its port left to connect().
#include "loiter/clients/transport/targets.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>

#include <optional>

#include "drive.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/http1/slow_reader.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

TEST(Targets, RefusesANonLoopbackTargetUnlessAllowed) {
  const tcp::endpoint remote(asio::ip::make_address("192.0.2.1"), 80);
  EXPECT_THROW(require_loopback(remote), std::invalid_argument);
  EXPECT_NO_THROW(require_loopback(remote, /*allow_non_loopback=*/true));
  EXPECT_NO_THROW(require_loopback({asio::ip::make_address("127.9.9.9"), 80}));
  EXPECT_NO_THROW(require_loopback({asio::ip::make_address("::1"), 80}));
}

// The one remote the user named is allowed, no other.
TEST(Targets, AllowsOnlyTheNamedRemote) {
  const tcp::endpoint remote(asio::ip::make_address("192.0.2.1"), 80);
  EXPECT_NO_THROW(require_loopback(remote, std::optional(remote.address())));
  EXPECT_THROW(require_loopback(remote, std::optional(asio::ip::make_address("192.0.2.2"))),
               std::invalid_argument);
  EXPECT_THROW(require_loopback(remote, std::optional<asio::ip::address>()), std::invalid_argument);
}

TEST(Targets, SpreadsSourcesOverLoopbackAddresses) {
  const tcp::endpoint target(asio::ip::make_address("127.0.0.1"), 80);
  EXPECT_EQ(source_for(target, 0).to_string(), "127.0.0.2");
  EXPECT_EQ(source_for(target, kConnectionsPerSource - 1).to_string(), "127.0.0.2");
  EXPECT_EQ(source_for(target, kConnectionsPerSource).to_string(), "127.0.0.3");
  EXPECT_EQ(source_for({asio::ip::make_address("::1"), 80}, 5).to_string(), "::1");
}

// A shard's block moves its sources to 127.<block>.0.2 on; IPv6 keeps ::1.
TEST(Targets, SpreadsSourcesFromTheFleetsBlock) {
  const tcp::endpoint target(asio::ip::make_address("127.0.0.1"), 80);
  EXPECT_EQ(source_for(target, 0, 3).to_string(), "127.3.0.2");
  EXPECT_EQ(source_for(target, kConnectionsPerSource, 255).to_string(), "127.255.0.3");
  EXPECT_EQ(source_of({.target = target, .source_offset = 1, .source_block = 2}, 0).to_string(),
            "127.2.0.2");
  EXPECT_EQ(source_for({asio::ip::make_address("::1"), 80}, 0, 3).to_string(), "::1");
}

// An IPv4 source is bound with its port left to connect(); none, or one of the other family,
// leaves the socket unbound.
TEST(Targets, BindSourceBindsTheAddressAndLeavesThePortToConnect) {
  asio::io_context io;
  const tcp::endpoint target(asio::ip::make_address("127.0.0.1"), 80);
  Socket bound(io.get_executor());
  bound.open(tcp::v4());
  ASSERT_FALSE(bind_source(bound, target, asio::ip::make_address("127.0.0.3")));
  EXPECT_EQ(bound.local_endpoint(), tcp::endpoint(asio::ip::make_address("127.0.0.3"), 0));
  int no_port = 0;
  socklen_t size = sizeof no_port;
  ::getsockopt(bound.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &no_port, &size);
  EXPECT_EQ(no_port, 1);
  for (const auto& source : {asio::ip::address(), asio::ip::make_address("::1")}) {
    Socket unbound(io.get_executor());
    unbound.open(tcp::v4());
    EXPECT_FALSE(bind_source(unbound, target, source));
    EXPECT_TRUE(unbound.local_endpoint().address().is_unspecified()) << source;
  }
}

TEST(Targets, NamesTheLimitWhenTooManyConnectionsAreAsked) {
  try {
    require_fd_room(100'000'000);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("RLIMIT_NOFILE"), std::string::npos) << e.what();
  }
}

// Every kind refuses a non-loopback target before it opens anything.
TEST(Targets, EveryKindRefusesANonLoopbackTarget) {
  const tcp::endpoint remote(asio::ip::make_address("192.0.2.1"), 80);
  asio::io_context io;
  std::vector<ConnectionRecord> out;
  EXPECT_THROW(spawn_silent(io, {.fleet = {.target = remote, .count = 1}}, out),
               std::invalid_argument);
  EXPECT_THROW(spawn_partial_header(io, {.fleet = {.target = remote, .count = 1}}, out),
               std::invalid_argument);
  EXPECT_THROW(spawn_slow_reader(io, {.fleet = {.target = remote, .count = 1}}, out),
               std::invalid_argument);
}

// A fleet's own allowed remote lets it through the loopback check; a bad block does not pass.
TEST(Targets, AFleetCarriesItsAllowedRemoteAndItsBlock) {
  const tcp::endpoint remote(asio::ip::make_address("192.0.2.1"), 80);
  EXPECT_NO_THROW(
      require_spawnable({.target = remote, .count = 1, .allowed_remote = remote.address()}));
  EXPECT_THROW(require_spawnable({.target = remote, .count = 1}), std::invalid_argument);
  const tcp::endpoint local(asio::ip::make_address("127.0.0.1"), 80);
  EXPECT_THROW(require_spawnable({.target = local, .count = 1, .source_block = 256}),
               std::invalid_argument);
}

// Records show the source each connection used: 127.0.0.2 first, the next address after
// source_offset moves past 16,000 connections.
TEST(Targets, ConnectionsComeFromTheSpreadSourceAddresses) {
  testing::Peer peer({.action = testing::PeerAction::close, .after = std::chrono::milliseconds(0)});
  const auto first = testing::drive(
      spawn_silent,
      SilentOptions{
          .fleet = {.target = peer.endpoint(), .count = 2, .patience = std::chrono::seconds(1)}});
  EXPECT_EQ(first.at(0).source.rfind("127.0.0.2:", 0), 0u) << first.at(0).source;
  EXPECT_EQ(first.at(1).source.rfind("127.0.0.2:", 0), 0u) << first.at(1).source;
  const auto moved = testing::drive(
      spawn_silent, SilentOptions{.fleet = {.target = peer.endpoint(),
                                            .count = 1,
                                            .patience = std::chrono::seconds(1),
                                            .source_offset = kConnectionsPerSource}});
  EXPECT_EQ(moved.at(0).source.rfind("127.0.0.3:", 0), 0u) << moved.at(0).source;
}

}  // namespace
}  // namespace loiter::clients
