// A run split over machines put back together (`loiter merge`): the shards' union, what
// `loiter observe` saw of the server over it, judged as one run by the same judge. Plain data
// out; printing it and writing its run directory are the caller's.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "loiter/suites/runner/shard_merge.hpp"

namespace loiter::suites {

// What the run was planned against, rebuilt from the shards' plan, and the server's watch.
struct MergeBasis {
  const Scenario* scenario = nullptr;
  fixtures::Target target;
  Timing timing;
  Expectations expected;
  ServerWatch watch;
};

// Throws std::invalid_argument when the plan cannot be rebuilt (its target file gone or
// changed, a scenario this loiter does not know), std::runtime_error when the watch in
// `observe` cannot be read.
MergeBasis merge_basis(const ShardPlan& plan, const std::filesystem::path& observe);

struct MergedRun {
  std::vector<std::string> problems;  // why the server's side is not whole: not judged
  ScenarioResult result;              // judged when there is no problem
  WallClock::time_point start_at;     // the shards' shared start
  std::string shards_json;            // which shards the run is made of (shards.json)
};

// The union of shards read whole (read_shards found no problem) with the server's side,
// judged. Throws std::invalid_argument on a record given twice.
MergedRun merge_run(ShardsRead shards, const MergeBasis& basis);

}  // namespace loiter::suites
