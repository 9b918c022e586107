// Clients refuse non-loopback targets and spread their sources over 127.0.0.2 upwards.
#include "loiter/clients/targets.hpp"

#include <gtest/gtest.h>

namespace loiter::clients {
namespace {

TEST(Targets, RefusesANonLoopbackTargetUnlessAllowed) {
  const tcp::endpoint remote(asio::ip::make_address("192.0.2.1"), 80);
  EXPECT_THROW(require_loopback(remote), std::invalid_argument);
  EXPECT_NO_THROW(require_loopback(remote, /*allow_non_loopback=*/true));
  EXPECT_NO_THROW(require_loopback({asio::ip::make_address("127.9.9.9"), 80}));
  EXPECT_NO_THROW(require_loopback({asio::ip::make_address("::1"), 80}));
}

TEST(Targets, SpreadsSourcesOverLoopbackAddresses) {
  const tcp::endpoint target(asio::ip::make_address("127.0.0.1"), 80);
  EXPECT_EQ(source_for(target, 0).to_string(), "127.0.0.2");
  EXPECT_EQ(source_for(target, kConnectionsPerSource - 1).to_string(), "127.0.0.2");
  EXPECT_EQ(source_for(target, kConnectionsPerSource).to_string(), "127.0.0.3");
  EXPECT_EQ(source_for({asio::ip::make_address("::1"), 80}, 5).to_string(), "::1");
}

TEST(Targets, NamesTheLimitWhenTooManyConnectionsAreAsked) {
  try {
    require_fd_room(100'000'000);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("RLIMIT_NOFILE"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loiter::clients
