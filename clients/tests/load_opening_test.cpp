// Both open-loop generators open their connections through one machine (load_socket.hpp): a
// connect nobody answers and a TLS handshake that a cleartext server ends are counted under
// the same names over HTTP/1.1 and HTTP/2, and nothing is dispatched on either.
#include <gtest/gtest.h>

#include "drive.hpp"
#include "load_checks.hpp"
#include "loiter/clients/load/load.hpp"
#include "peer.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using testing::kLoadLead;
using testing::nobody_listening;
using testing::Peer;
using testing::PeerAction;
using testing::run_until_stopped;

LoadOptions failing_options(tcp::endpoint server, bool h2) {
  return {.server = server,
          .rate = 100,
          .duration = 200ms,
          .connections = 2,
          .start = Clock::now() + kLoadLead,
          .send_grace = 100ms,
          .protocol = h2 ? LoadProtocol::h2 : LoadProtocol::http1};
}

std::uint64_t errors_named(const LoadResult& r, const std::string& name) {
  const auto found = r.errors.find(name);
  return found == r.errors.end() ? 0 : found->second;
}

TEST(LoadOpening, BothProtocolsNameAFailedOpeningAlike) {
  const auto closed = nobody_listening();
  Peer cleartext({.action = PeerAction::close});  // accepts, then closes at once
  for (const bool h2 : {false, true}) {
    SCOPED_TRACE(h2 ? "HTTP/2" : "HTTP/1.1");
    const auto refused = run_until_stopped(failing_options(closed, h2));
    EXPECT_EQ(refused.dispatched, 0u);
    EXPECT_GT(errors_named(refused, "connect-failed"), 0u);
    EXPECT_EQ(refused.errors.size(), 1u);
    EXPECT_EQ(refused.connections_opened, 0u);

    auto options = failing_options(cleartext.endpoint(), h2);
    options.tls = make_tls_client({.alpn = {"http/1.1"}});
    const auto ended = run_until_stopped(options);
    EXPECT_EQ(ended.dispatched, 0u);
    EXPECT_GT(errors_named(ended, "handshake-failed"), 0u);
    EXPECT_EQ(ended.errors.size(), 1u);
    EXPECT_EQ(ended.connections_opened, 0u);
  }
}

}  // namespace
}  // namespace loiter::clients
