// The two Jobs of a sharded run on Kubernetes and the steps printed above them, built as
// JSON values: `loiter k8s-job` prints them as YAML or JSON.
#include "k8s_manifest.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <cstdint>

namespace loiter::cli {

namespace json = boost::json;

namespace {

constexpr std::string_view kRuns = "/runs";
constexpr std::int64_t kImageUser = 10001;
constexpr std::string_view kShardContainer = "shard";

json::object labels(const K8sJobPlan& plan, std::string_view component) {
  return {{"app.kubernetes.io/name", "loiter"},
          {"app.kubernetes.io/instance", plan.name},
          {"app.kubernetes.io/component", component}};
}

json::object metadata(const K8sJobPlan& plan, std::string_view component) {
  json::object out{{"name", fmt::format("{}-{}", plan.name, component)}};
  if (!plan.name_space.empty()) out["namespace"] = plan.name_space;
  out["labels"] = labels(plan, component);
  out["annotations"] = json::object{{"loiter/start-at", plan.start_at},
                                    {"loiter/target", plan.target},
                                    {"loiter/scenario", plan.scenario}};
  return out;
}

json::array strings(const std::vector<std::string>& items) {
  json::array out;
  for (const auto& item : items) out.emplace_back(item);
  return out;
}

// The claim at /runs: the shards write their directories there, the merge reads them.
json::object container(const K8sJobPlan& plan, std::string_view name,
                       const std::vector<std::string>& args) {
  json::object out{{"name", name},
                   {"image", plan.image},
                   {"command", json::array{"loiter"}},
                   {"args", strings(args)}};
  if (!plan.time_scale.empty()) {
    out["env"] =
        json::array{json::object{{"name", "LOITER_TIME_SCALE"}, {"value", plan.time_scale}}};
  }
  json::object requests;
  if (!plan.cpu.empty()) requests["cpu"] = plan.cpu;
  if (!plan.memory.empty()) requests["memory"] = plan.memory;
  if (!requests.empty()) out["resources"] = json::object{{"requests", std::move(requests)}};
  out["volumeMounts"] = json::array{json::object{{"name", "runs"}, {"mountPath", kRuns}}};
  return out;
}

// The image (examples/container/Containerfile) runs loiter as uid and gid 10001: the pods
// insist on a user that is not root, and fsGroup makes the claim at /runs theirs to write.
json::object pod_security() {
  return {{"runAsNonRoot", true},
          {"runAsUser", kImageUser},
          {"runAsGroup", kImageUser},
          {"fsGroup", kImageUser}};
}

json::array runs_volume(const K8sJobPlan& plan) {
  return {json::object{{"name", "runs"},
                       {"persistentVolumeClaim", json::object{{"claimName", plan.claim}}}}};
}

// One shard per node where the nodes allow it (preferred, not required: K may exceed them).
json::array spread(const K8sJobPlan& plan) {
  return {json::object{{"maxSkew", 1},
                       {"topologyKey", "kubernetes.io/hostname"},
                       {"whenUnsatisfiable", "ScheduleAnyway"},
                       {"labelSelector", {{"matchLabels", labels(plan, "shards")}}}}};
}

// A share never runs twice: no retry (backoffLimit 0, restartPolicy Never), and any failed
// shard, or one the cluster disrupted, fails the Job at once with its reason and exit code.
json::object failure_policy() {
  const json::object exit_codes{
      {"containerName", kShardContainer}, {"operator", "NotIn"}, {"values", json::array{0}}};
  return {{"rules", json::array{json::object{{"action", "FailJob"}, {"onExitCodes", exit_codes}},
                                json::object{{"action", "FailJob"},
                                             {"onPodConditions",
                                              json::array{json::object{{"type", "DisruptionTarget"},
                                                                       {"status", "True"}}}}}}}};
}

std::string namespace_flag(const K8sJobPlan& plan) {
  return plan.name_space.empty() ? "" : " -n " + plan.name_space;
}

}  // namespace

std::int64_t deadline_seconds(std::int64_t lead_s, std::int64_t longest_s) {
  constexpr std::int64_t kMarginS = 60;
  return lead_s + longest_s + kMarginS + (longest_s + 9) / 10;
}

std::string literal_argument(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '$' ? std::string("$$") : std::string(1, c);
  return out;
}

std::string shard_directory(const K8sJobPlan& plan, std::size_t k) {
  return fmt::format("{}/{}", kRuns,
                     suites::shard_directory_name(plan.start, plan.target_name, k, plan.shards));
}

std::string observe_directory(const K8sJobPlan& plan) {
  return fmt::format("{}/{}-server", kRuns, plan.stamp);
}

std::vector<std::string> shard_arguments(const K8sJobPlan& plan) {
  std::vector<std::string> out{"check", "--target", literal_argument(plan.target), "--scenario",
                               literal_argument(plan.scenario)};
  for (const auto& option : plan.scenario_options) out.push_back(literal_argument(option));
  const std::vector<std::string> rest{
      "--connect",      literal_argument(plan.connect),
      "--allow-remote", literal_argument(plan.host),
      "--shard",        fmt::format("$(JOB_COMPLETION_INDEX)/{}", plan.shards),
      "--start-at",     plan.start_at,
      "--runs",         std::string(kRuns)};
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

std::vector<std::string> merge_arguments(const K8sJobPlan& plan) {
  std::vector<std::string> out{"merge"};
  for (std::size_t k = 0; k < plan.shards; ++k) {
    out.push_back(literal_argument(shard_directory(plan, k)));
  }
  out.insert(out.end(), {"--observe", literal_argument(observe_directory(plan)), "--runs",
                         std::string(kRuns)});
  return out;
}

json::value shard_job(const K8sJobPlan& plan) {
  const json::object pod{
      {"restartPolicy", "Never"},
      {"securityContext", pod_security()},
      {"topologySpreadConstraints", spread(plan)},
      {"containers", json::array{container(plan, kShardContainer, shard_arguments(plan))}},
      {"volumes", runs_volume(plan)}};
  const auto shards = static_cast<std::int64_t>(plan.shards);
  return json::object{
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata", metadata(plan, "shards")},
      {"spec",
       {{"completionMode", "Indexed"},
        {"completions", shards},
        {"parallelism", shards},
        {"backoffLimit", 0},
        {"activeDeadlineSeconds", plan.deadline_s},
        {"podFailurePolicy", failure_policy()},
        {"template", {{"metadata", {{"labels", labels(plan, "shards")}}}, {"spec", pod}}}}}};
}

json::value merge_job(const K8sJobPlan& plan) {
  const json::object pod{
      {"restartPolicy", "Never"},
      {"securityContext", pod_security()},
      {"containers", json::array{container(plan, "merge", merge_arguments(plan))}},
      {"volumes", runs_volume(plan)}};
  return json::object{
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata", metadata(plan, "merge")},
      {"spec",
       {{"completions", 1},
        {"parallelism", 1},
        {"backoffLimit", 0},
        {"template", {{"metadata", {{"labels", labels(plan, "merge")}}}, {"spec", pod}}}}}};
}

std::vector<std::string> manifest_steps(const K8sJobPlan& plan) {
  const auto ns = namespace_flag(plan);
  const auto selector = [&](std::string_view component) {
    return fmt::format("-l app.kubernetes.io/instance={},app.kubernetes.io/component={}{}",
                       plan.name, component, ns);
  };
  const auto server_dir = fmt::format("{}-server", plan.stamp);
  const auto port = plan.connect.substr(plan.connect.rfind(':') + 1);
  return {
      fmt::format("loiter k8s-job: {} against {} at {}, {} shards,", plan.scenario, plan.target,
                  plan.connect, plan.shards),
      fmt::format("all starting at {}.", plan.start_at),
      fmt::format("Longest run of the scenario {} s; shard Job and observer bounded at {} s.",
                  plan.longest_s, plan.deadline_s),
      fmt::format("The claim {} is mounted by every shard at once, from different nodes:",
                  plan.claim),
      "it must be ReadWriteMany.",
      "The image runs `loiter` from its PATH; a target file must be at the same path in it.",
      "Save this output as FILE, then:",
      fmt::format("1. Within {} s before {}, apply the shard Job (its activeDeadlineSeconds",
                  plan.lead_s, plan.start_at),
      "   counts from then; a shard that starts after the start time is late):",
      fmt::format("     kubectl apply -f FILE {}", selector("shards")),
      "2. At the same time, on the server's machine (P: the server's PID; N: the port it",
      "   listens on), watch it from before the start until past the last shard's end:",
      fmt::format("     loiter observe --pid P --port {} --out {} --duration {}", port, server_dir,
                  plan.deadline_s),
      fmt::format("   then copy that directory to the claim as {}", observe_directory(plan)),
      "   (e.g. kubectl cp into a pod that mounts the claim).",
      "3. Wait for the shards (backoffLimit 0: a failed shard fails the Job at once; go on to",
      "   the merge, which names what is missing):",
      fmt::format("     kubectl wait --for=condition=complete job/{}-shards --timeout={}s{}",
                  plan.name, plan.deadline_s, ns),
      "4. Apply the merge Job and read its verdict and run directory (under /runs):",
      fmt::format("     kubectl apply -f FILE {}", selector("merge")),
      fmt::format("     kubectl logs -f job/{}-merge{}   # once its pod runs; to its end",
                  plan.name, ns),
      "   The merge container's exit code is the verdict: 0 pass, 1 fail, 3 incomplete (a",
      "   missing, killed or late shard), 2 bad input:",
      fmt::format("     kubectl get pods {} -o jsonpath='{{.items[0].status.containerStatuses[0]"
                  ".state.terminated.exitCode}}'",
                  selector("merge"))};
}

std::vector<std::string> shard_job_notes(const K8sJobPlan& plan) {
  return {fmt::format("The shards: {} pods of one Indexed Job, shard k = JOB_COMPLETION_INDEX.",
                      plan.shards),
          "Descriptors (nofile) are the node's matter, not the manifest's: a pod inherits the",
          "container runtime's RLIMIT_NOFILE; raise it there (e.g. the runtime's default ulimits)",
          "when one shard holds thousands of connections."};
}

}  // namespace loiter::cli
