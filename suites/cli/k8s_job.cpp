// `loiter k8s-job`: the options, their checks (names Kubernetes accepts, a scenario the
// target can run, one start time), and the manifests printed as YAML or JSON.
#include "k8s_job.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <regex>
#include <stdexcept>

#include "check.hpp"
#include "exit_codes.hpp"
#include "host_port.hpp"
#include "k8s_manifest.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/number_text.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "yaml_emit.hpp"

namespace loiter::cli {

namespace {

using SystemClock = std::chrono::system_clock;

// <name>-shards-<index> is a pod's hostname (at most 63 characters) with K up to 1000.
constexpr std::size_t kMostNameLength = 40;

// A DNS label as Kubernetes names Jobs and namespaces: lower-case letters, digits and '-',
// a letter or digit at both ends.
const std::regex kDnsLabel("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
// A claim's name: DNS labels joined by '.'.
const std::regex kDnsSubdomain("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
// A resource quantity: "500m", "2", "1.5", "512Mi", "1G", "1e3".
const std::regex kQuantity("([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+|[kMGTPE]i?|Ki|m)?");

void require(bool ok, const std::string& problem) {
  if (!ok) throw std::invalid_argument(problem);
}

void check_names(const K8sJobOptions& options) {
  require(std::regex_match(options.name, kDnsLabel) && options.name.size() <= kMostNameLength,
          fmt::format("--name '{}': not a Job name (lower-case letters, digits and '-', a letter "
                      "or digit at both ends, at most {} characters)",
                      options.name, kMostNameLength));
  require(options.name_space.empty() ||
              (std::regex_match(options.name_space, kDnsLabel) && options.name_space.size() <= 63),
          fmt::format("--namespace '{}': not a namespace name (lower-case letters, digits and "
                      "'-', at most 63 characters)",
                      options.name_space));
  require(std::regex_match(options.claim, kDnsSubdomain) && options.claim.size() <= 253,
          fmt::format("--claim '{}': not a PersistentVolumeClaim name (lower-case letters, "
                      "digits, '-' and '.')",
                      options.claim));
  require(!options.image.empty() && options.image.find_first_of(" \t\n") == std::string::npos,
          fmt::format("--image '{}': not an image reference", options.image));
  for (const auto& [option, value] :
       {std::pair{"--cpu", options.cpu}, {"--memory", options.memory}}) {
    require(value.empty() || std::regex_match(value, kQuantity),
            fmt::format("{} '{}': not a Kubernetes quantity (e.g. 500m, 2, 512Mi, 1Gi)", option,
                        value));
  }
}

// T: --start-at (in the future), or now + --lead rounded up to the whole second.
SystemClock::time_point start_time(const K8sJobOptions& options) {
  const auto now = SystemClock::now();
  if (options.start_at.empty()) {
    return std::chrono::ceil<std::chrono::seconds>(now) + std::chrono::seconds(options.lead_s);
  }
  const auto t = suites::parse_utc_option("--start-at", options.start_at);
  require(t > now, fmt::format("--start-at {} is past (now {}): the shards would all be late",
                               options.start_at, suites::format_utc(now)));
  return t;
}


suites::ScenarioParameters parameters_of(const K8sJobOptions& options) {
  return {.count = options.count,
          .load_rate = options.load_rate,
          .load_duration = std::chrono::duration_cast<suites::Duration>(
              std::chrono::duration<double>(options.load_duration)),
          .load_connections = options.load_connections};
}

// The scenario options the user gave, as the shard gets them.
std::vector<std::string> scenario_options(const K8sJobOptions& options) {
  std::vector<std::string> out;
  if (options.count != 0) out.insert(out.end(), {"--count", std::to_string(options.count)});
  if (options.load_rate > 0)
    out.insert(out.end(), {"--load-rate", reports::plain_number(options.load_rate, 17)});
  if (options.load_duration > 0) {
    out.insert(out.end(), {"--load-duration", reports::plain_number(options.load_duration, 17)});
  }
  if (options.load_connections != 0) {
    out.insert(out.end(), {"--load-connections", std::to_string(options.load_connections)});
  }
  return out;
}

// Every input checked and resolved; throws std::invalid_argument naming the problem.
K8sJobPlan plan_of(const K8sJobOptions& options) {
  check_names(options);
  K8sJobPlan plan{.name = options.name,
                 .name_space = options.name_space,
                 .image = options.image,
                 .shards = options.shards,
                 .connect = options.connect,
                 .host = split_host_port(options.connect).host,
                 .claim = options.claim};
  const auto target = chosen_target(options.target);
  // Each shard holds its share of the connections: the scenario's limits are on count / K.
  const auto share = (options.count + options.shards - 1) / options.shards;
  const auto* scenario = suites::choose_scenarios({options.scenario}, share).front();
  const auto longest =
      suites::longest_run(*scenario, target, suites::timing(), parameters_of(options));
  require(longest.has_value(),
          fmt::format("scenario {} cannot run against {}: {}", options.scenario, target.name,
                      scenario->unmet_need(target).value_or("the target lacks what it needs")));
  const auto start = start_time(options);
  plan.start = start;
  plan.start_at = suites::format_utc(start);
  plan.stamp = suites::utc_stamp(start);
  plan.target = options.target;
  plan.target_name = suites::file_safe(target.name);
  plan.scenario = options.scenario;
  plan.scenario_options = scenario_options(options);
  plan.lead_s = options.lead_s;
  plan.longest_s = std::chrono::ceil<std::chrono::seconds>(*longest).count();
  plan.deadline_s = deadline_seconds(plan.lead_s, plan.longest_s);
  plan.cpu = options.cpu;
  plan.memory = options.memory;
  if (const char* scale = std::getenv("LOITER_TIME_SCALE"); scale != nullptr && *scale != '\0') {
    plan.time_scale = scale;  // a valid one: suites::timing() above refuses any other
  }
  return plan;
}

std::string render(const K8sJobPlan& plan, const std::string& format) {
  if (format == "json") {
    // A v1 List, as `kubectl apply -f` takes several objects in one JSON document.
    const boost::json::object list{{"apiVersion", "v1"},
                                   {"kind", "List"},
                                   {"items", boost::json::array{shard_job(plan), merge_job(plan)}}};
    return boost::json::serialize(list) + "\n";
  }
  return yaml_stream(manifest_steps(plan),
                     {{shard_job_notes(plan), shard_job(plan)},
                      {{"The merge: judges the union of the shards with the server's observation."},
                       merge_job(plan)}});
}

}  // namespace

void add_k8s_job_options(CLI::App& command, K8sJobOptions& options) {
  command.add_option("--image", options.image, "the container image, with loiter on its PATH and uid 10001 to run it "
                     "(examples/container/build makes one from loiter's Debian package)")
      ->required();
  command.add_option("--shards", options.shards, "K: shards, one pod each")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  command
      .add_option("--connect", options.connect,
                  "the server, HOST:PORT as the pods reach it (passed to --allow-remote)")
      ->required();
  command
      .add_option("--claim", options.claim,
                  "the PersistentVolumeClaim (ReadWriteMany) mounted at /runs")
      ->required();
  command.add_option("--scenario", options.scenario, "the scenario id the shards run together")
      ->required();
  command
      .add_option("--target", options.target,
                  "the target whose expectations judge the run: a bundled name or a target "
                  "file at the same path in the image")
      ->capture_default_str();
  command.add_option("--name", options.name, "the Jobs are NAME-shards and NAME-merge")
      ->capture_default_str();
  command.add_option("--namespace", options.name_space, "the Jobs' namespace (default: kubectl's)");
  command
      .add_option("--lead", options.lead_s,
                  "seconds from now to the shards' start; with --start-at, how long before it "
                  "the shard Job may be applied")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{7 * 24 * 3600}));
  command.add_option("--start-at", options.start_at,
                     "the shards' start, UTC in whole seconds (2026-12-02T10:00:00Z)");
  command
      .add_option("--count", options.count,
                  "connections of the scenario (all shards; each holds count / K, within the "
                  "scenario's limit for one run)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{10'000'000}));
  command.add_option("--load-rate", options.load_rate, "regular requests per second (all shards)")
      ->check(positive_number(kMostLoadRate));
  command.add_option("--load-duration", options.load_duration, "seconds of regular traffic")
      ->check(number_between(0.5, kMostLoadDuration));
  command
      .add_option("--load-connections", options.load_connections,
                  "keep-alive connections of the regular traffic")
      ->check(CLI::Range(1, 1000));
  command.add_option("--cpu", options.cpu, "each shard's CPU request (e.g. 2, 500m)");
  command.add_option("--memory", options.memory, "each shard's memory request (e.g. 1Gi)");
  command.add_option("--format", options.format, "yaml (a stream of two documents) or json (a v1 List of the two)")
      ->capture_default_str()
      ->check(CLI::IsMember({"yaml", "json"}));
  command.footer(
      "Example:\n"
      "  loiter k8s-job --image registry.example/loiter:1 --shards 8 --claim loiter-runs \\\n"
      "    --connect 10.0.3.7:8080 --scenario idle-under-load --load-rate 40000 > loiter.yaml\n"
      "The output's comment says what to run: apply the shards, observe the server, apply the "
      "merge;\nthe merge's exit code is the verdict (0 pass, 1 fail, 3 incomplete).");
}

int run_k8s_job(const K8sJobOptions& options) {
  // Every input refused (exit 2): invalid_argument, a target file that cannot be read.
  const auto plan = refusing([&] { return plan_of(options); });
  std::cout << render(plan, options.format) << std::flush;
  return kPassed;
}

}  // namespace loiter::cli
