// `loiter k8s-job`: prints the Kubernetes manifests of a sharded run (an Indexed Job of K
// shards against a server elsewhere, then the Job of the merge) as YAML or JSON. Nothing is
// applied; every input is checked first (exit 2).
#pragma once

#include <CLI/App.hpp>
#include <cstdint>
#include <string>

namespace loiter::cli {

struct K8sJobOptions {
  std::string image;            // required
  std::size_t shards = 0;       // K, required: 1..1000
  std::string connect;          // HOST:PORT, required
  std::string claim;            // the PersistentVolumeClaim mounted at /runs, required
  std::string name = "loiter";  // the Jobs: <name>-shards, <name>-merge
  std::string name_space;       // empty: kubectl's current namespace
  std::int64_t lead_s = 120;    // T = now + lead, unless start_at
  std::string start_at;         // T, RFC 3339 UTC, whole seconds
  std::string target = "reference";
  std::string scenario;  // required
  std::size_t count = 0;
  double load_rate = 0;
  double load_duration = 0;
  std::size_t load_connections = 0;
  std::string cpu, memory;  // resource requests; empty: none
  std::string format = "yaml";
};

void add_k8s_job_options(CLI::App& command, K8sJobOptions& options);

// Returns the process exit code: 0 printed, 2 a bad input.
int run_k8s_job(const K8sJobOptions& options);

}  // namespace loiter::cli
