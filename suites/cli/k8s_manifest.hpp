// The manifests of `loiter k8s-job` from a checked plan: the Indexed Job of K shards, the
// one-completion Job of the merge, and the steps around them. Pure: no clock, no I/O.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::cli {

// Everything the manifests say, checked and resolved by `loiter k8s-job` (not the plan the
// shards share: that is suites::ShardPlan, which the shards write themselves).
struct K8sJobPlan {
  std::string name;         // the Jobs are <name>-shards and <name>-merge
  std::string name_space;   // empty: the current namespace of kubectl
  std::string image;        // has `loiter` on its PATH
  std::size_t shards = 1;   // K
  std::string connect;      // HOST:PORT as the user gave it
  std::string host;         // HOST, brackets of an IPv6 address removed: --allow-remote
  std::string claim;        // the PersistentVolumeClaim mounted at /runs
  suites::WallClock::time_point start;  // T
  std::string start_at;     // T, RFC 3339 UTC, whole seconds
  std::string stamp;        // T as run directories name it: YYYYMMDDTHHMMSSZ
  std::string target;       // --target as the user gave it (a bundled name or a file in the image)
  std::string target_name;  // the target's name as directory names carry it
  std::string scenario;
  std::vector<std::string> scenario_options;  // --count N, --load-rate R, ... as given
  std::int64_t lead_s = 0;                    // the Job is applied at most this long before T
  std::int64_t longest_s = 0;                 // suites::longest_run, rounded up
  std::int64_t deadline_s = 0;  // lead + longest + margin: the Job's and observe's bound
  std::string cpu, memory;      // resource requests; empty: none
  // LOITER_TIME_SCALE as set here: the pods get it too, so their windows are the bound's.
  std::string time_scale;
};

// lead + longest + the margin (a minute, and a tenth of the longest run).
std::int64_t deadline_seconds(std::int64_t lead_s, std::int64_t longest_s);

// The directory shard k of K writes under /runs: <stamp>-<target>-shard-<k>-of-<K>.
std::string shard_directory(const K8sJobPlan& plan, std::size_t k);
// The directory the server's `loiter observe` is copied to: /runs/<stamp>-server.
std::string observe_directory(const K8sJobPlan& plan);

// The shard's arguments after `loiter`: check ... --shard $(JOB_COMPLETION_INDEX)/K ...
std::vector<std::string> shard_arguments(const K8sJobPlan& plan);
// The merge's arguments after `loiter`: merge DIR... --observe DIR --runs /runs.
std::vector<std::string> merge_arguments(const K8sJobPlan& plan);

// Document 1: the batch/v1 Indexed Job, <name>-shards.
boost::json::value shard_job(const K8sJobPlan& plan);
// Document 2: the batch/v1 Job of the merge, <name>-merge.
boost::json::value merge_job(const K8sJobPlan& plan);

// The comment above the documents: what to run, in order, and how to read the verdict.
std::vector<std::string> manifest_steps(const K8sJobPlan& plan);
// The comment above the shard Job: descriptors (nofile) are the node's matter.
std::vector<std::string> shard_job_notes(const K8sJobPlan& plan);

// `text` with each '$' doubled: Kubernetes expands $(VAR) in a container's args and turns
// "$$" into "$", so what the user typed reaches loiter unchanged.
std::string literal_argument(const std::string& text);

}  // namespace loiter::cli
