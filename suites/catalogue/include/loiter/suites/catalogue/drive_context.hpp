// The side of a scenario that drives connections: what its clients are driven against.
// Included by the catalogue's scenario definitions and the runner's drive, never by a header
// of the plain-data layers (scenario.hpp only declares it).
#pragma once

#include <functional>
#include <optional>

#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/share.hpp"
#include "loiter/clients/transport/tls.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/catalogue/timing.hpp"

namespace loiter::suites {

struct DriveContext {
  clients::tcp::endpoint server;
  // The origin of the scenario's timeline: its fleets are paced from here, the same moment
  // in every client process when the connections are split over several.
  clients::Clock::time_point start;
  const fixtures::Target& target;
  const Expectations& expected;
  const Timing& timing;
  const ScenarioParameters& parameters;  // resolved: defaults filled in
  clients::TlsClient tls;                // the target's TLS (Target::tls); null: cleartext
  // Which of every fleet's connections this process spawns: all, unless the run is split
  // over client processes or shards.
  clients::FleetShare share;
  // Sources from 127.<source_block>.0.2 on: a shard's own (clients::source_for); 0 else.
  unsigned source_block = 0;
  // The server, when a shard was allowed to drive one off loopback (--allow-remote).
  std::optional<clients::asio::ip::address> allowed_remote;
  // True once the user asked the run to stop (Ctrl-C): a scenario that winds down
  // (Scenario::winds_down) ends its schedule there; empty: never.
  std::function<bool()> stop_early;
  // Where a scenario spawns its regular traffic (kit::load_io): an io_context the runner runs
  // on a thread of its own, so that what the other clients do (1,050 TLS handshakes opening
  // at once) never delays a send of the open-loop generator, whose latency is measured from
  // each request's intended time; null: beside the other clients, on their io_context.
  clients::asio::io_context* load_io = nullptr;
};

}  // namespace loiter::suites
