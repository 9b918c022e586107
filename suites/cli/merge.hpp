// `loiter merge SHARD_DIR... --observe DIR`: the shards of one run split over machines
// (loiter check --shard k/K), checked whole and merged with what `loiter observe` saw of the
// server, judged as one run by the same judge, into one run directory.
#pragma once

#include <CLI/App.hpp>
#include <string>
#include <vector>

namespace loiter::cli {

struct MergeOptions {
  std::vector<std::string> shards;  // shard directories
  std::string observe;              // loiter observe's directory
  std::string runs_root = "loiter-runs";
  double start_tolerance = 1.0;  // s: a shard later than this against the shared start
  std::string json_path;
  std::string junit_path;
};

void add_merge_options(CLI::App& command, MergeOptions& options);

// 0 passed, 1 failed, 2 a bad input, 3 incomplete (a shard missing, killed, failed, late or
// inconsistent; the server not watched over the whole run): never a pass.
int run_merge(const MergeOptions& options);

}  // namespace loiter::cli
