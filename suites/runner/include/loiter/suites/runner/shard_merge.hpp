// The shards of one run put back together: first whether they are whole (every shard there
// once, finished, on one plan and one start, every connection and request of the plan once
// and on its own shard), then their union, which reads as one process's run of the plan.
#pragma once

#include <cstddef>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/load/load_result.hpp"
#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::suites {

struct ShardCheck {
  std::vector<std::string> problems;  // why the shards are not a whole run; empty: whole
  clients::Duration worst_lag{};      // the latest start after the shared one
  std::size_t worst_lag_shard = 0;
};

// Pure: what the shards' files say against each other and against their plan. A lag beyond
// `tolerance` is a problem: that shard's timeline was not the others'.
ShardCheck check_shards(const std::vector<ShardData>& shards, clients::Duration tolerance);

// The shards of `dirs` as read, on one origin; checked against each other (check_shards)
// when every one could be read.
struct ShardsRead {
  std::vector<ShardData> shards;
  std::vector<std::string> unreadable;  // a torn or missing file: a shard that did not end
  ShardCheck check;
  clients::Clock::time_point origin;  // stands for the shared start in this process
};
ShardsRead read_shards(const std::vector<std::filesystem::path>& dirs,
                       clients::Duration tolerance);

struct MergedShards {
  std::deque<std::vector<clients::ConnectionRecord>> fleets;  // whole, in index order
  std::optional<clients::LoadResult> load;
  std::size_t client_processes = 0;    // over every shard
  WallClock::time_point clients_ended;  // the last shard's clients' end
  WallClock::time_point clients_from = WallClock::time_point::max();  // the first's start
};

// The union of shards check_shards() found whole. Throws std::invalid_argument on a record
// given twice.
MergedShards merge_shards(std::vector<ShardData> shards);

// The requests of the whole schedule of `rate` for `duration` (as the load generator counts
// them), and how many of them are shard k of K's.
std::uint64_t schedule_requests(double rate, clients::Duration duration);
std::uint64_t share_of_requests(std::uint64_t requests, std::size_t index, std::size_t count);

}  // namespace loiter::suites
