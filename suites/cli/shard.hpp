// `loiter check --shard k/K --start-at T --connect HOST:PORT`: one shard of a run split over
// machines. It starts no server: it drives share k of the scenario's connections and
// regular traffic against the server at HOST:PORT on the timeline that starts at T for every
// shard, and writes its shard directory for `loiter merge`.
#pragma once

#include <CLI/App.hpp>
#include <cstddef>

#include "check.hpp"
#include "loiter/fixtures/probe/endpoint.hpp"

namespace loiter::cli {

// The most connections a sharded run is asked for in all (each shard holds count / K).
inline constexpr std::size_t kShardedCount = 10'000'000;

void add_shard_options(CLI::App& command, CheckOptions& options);

// The server check's --connect names (connect_endpoint, endpoint_text.hpp); a shard needs
// --connect.
fixtures::TcpEndpoint server_endpoint(const CheckOptions& options);

// Returns the process exit code: 0 the share ran, 2 a bad input (nothing started), 3 a
// harness fault, 130 interrupted (the directory says so, and the merge will call the run
// incomplete).
int run_shard(const CheckOptions& options);

}  // namespace loiter::cli
