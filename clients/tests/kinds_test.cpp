// The kind registry: every kind by the name its records carry, with the settings it takes,
// spawned from a fleet and those settings as its own spawn function would be.
#include "loiter/clients/kinds.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "drive.hpp"
#include "loiter/clients/http1/keepalive_partial.hpp"
#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;

std::vector<ConnectionRecord> drive_named(std::string_view name, const FleetSpec& fleet,
                                          const KindSettings& settings) {
  asio::io_context io;
  std::vector<ConnectionRecord> records;
  find_client_kind(name)->spawn(io, fleet, settings, records);
  io.run();
  return records;
}

// Each name once, in order, and each found by it.
TEST(Kinds, EveryKindIsFoundByItsName) {
  const auto kinds = client_kinds();
  ASSERT_EQ(kinds.size(), 40u);
  EXPECT_TRUE(std::ranges::is_sorted(kinds, std::ranges::less{}, &ClientKind::name));
  EXPECT_EQ(std::ranges::adjacent_find(kinds, {}, &ClientKind::name), kinds.end());
  for (const auto& kind : kinds) EXPECT_EQ(find_client_kind(kind.name), &kind) << kind.name;
  EXPECT_EQ(find_client_kind("no-such-kind"), nullptr);
}

// What each takes is what its options have: an interval, a pause, a path.
TEST(Kinds, SayWhichSettingsTheyTake) {
  const auto takes = [](std::string_view name) {
    const auto* kind = find_client_kind(name);
    return std::string(kind->paced ? "i" : "") + (kind->pauses ? "p" : "") +
           (kind->has_path ? "/" : "");
  };
  EXPECT_EQ(takes("silent"), "");
  EXPECT_EQ(takes("partial-header"), "/");
  EXPECT_EQ(takes("header-trickle"), "i/");
  EXPECT_EQ(takes("slow-reader"), "i/");
  EXPECT_EQ(takes("keepalive-partial"), "p/");
  EXPECT_EQ(takes("reader-pause"), "p/");
  EXPECT_EQ(takes("tls-hello-trickle"), "i");
  EXPECT_EQ(takes("tls-handshake-silent"), "i");
  EXPECT_EQ(takes("h2-idle"), "i/");
  EXPECT_EQ(takes("h3-idle"), "p");
  EXPECT_EQ(takes("h3-initial-stall"), "p");
  EXPECT_EQ(takes("h3-headers-trickle"), "i/");
  EXPECT_EQ(takes("h3-data-trickle"), "i/");
  EXPECT_EQ(takes("h3-window-trickle"), "i/");
  EXPECT_EQ(takes("h3-stream"), "/");
  EXPECT_EQ(takes("h3-control-close"), "");
}

// The two kinds that complete a handshake, and only they, need the fleet's TLS.
TEST(Kinds, OnlyTheHandshakingKindsNeedTls) {
  for (const auto& kind : client_kinds()) {
    EXPECT_EQ(kind.needs_tls, kind.name == kTlsHandshakeSilent || kind.name == kTlsLateHead)
        << kind.name;
  }
}

// The HTTP/3 kinds, and only they, speak QUIC: the fleet's TLS is not theirs.
TEST(Kinds, OnlyTheHttp3KindsSpeakQuic) {
  for (const auto& kind : client_kinds()) {
    EXPECT_EQ(kind.quic, kind.name.starts_with("h3-")) << kind.name;
  }
}

// Spawned by name, a kind runs the fleet it is given and records itself by that name.
TEST(Kinds, SpawnedByNameRunTheirFleet) {
  Peer peer({.action = PeerAction::close, .after = 50ms});
  const auto records =
      drive_named(kSilent, {.target = peer.endpoint(), .count = 2, .patience = scaled(1s)}, {});
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    EXPECT_EQ(record.kind, kSilent);
    EXPECT_EQ(record.ending, Ending::close);
  }
}

// The settings given reach the kind's options: keepalive-partial requests the path.
TEST(Kinds, SpawnedByNameTakeTheSettingsGiven) {
  Peer peer({.action = PeerAction::close, .after = 100ms});
  const auto records = drive_named(kKeepalivePartial,
                                   {.target = peer.endpoint(), .count = 1, .patience = scaled(1s)},
                                   {.pause = 10ms, .path = "/given"});
  EXPECT_THAT(peer.connections().at(0).received(), ::testing::StartsWith("GET /given HTTP/1.1"));
  EXPECT_EQ(records.at(0).kind, kKeepalivePartial);
}

}  // namespace
}  // namespace loiter::clients
