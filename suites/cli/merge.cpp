// `loiter merge`: shards checked whole, merged, judged as one run, into a run directory that
// also says which shards it is made of (shards.json).
#include "merge.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <iostream>

#include "check.hpp"
#include "finish.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/document/server_side.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/runner/shard_merge.hpp"

namespace loiter::cli {

namespace {

namespace fs = std::filesystem;

// What the run was planned against, rebuilt from the shards' plan. Throws
// std::invalid_argument when it cannot be (a target file gone or changed).
struct Plan {
  const suites::Scenario* scenario = nullptr;
  fixtures::Target target;
  suites::Timing timing;
  suites::Expectations expected;
};

Plan rebuild(const suites::ShardPlan& plan) {
  if (!plan.target_sha256.empty() && (!fs::is_regular_file(plan.target) ||
                                      fixtures::sha256_of_file(plan.target) != plan.target_sha256)) {
    throw std::invalid_argument(fmt::format(
        "the target file {} is not the one the shards ran with (SHA-256 {})", plan.target,
        plan.target_sha256));
  }
  CheckOptions as_checked;
  as_checked.target = plan.target;
  as_checked.header_timeout = plan.header_timeout;
  as_checked.body_timeout = plan.body_timeout;
  as_checked.idle_timeout = plan.idle_timeout;
  as_checked.send_timeout = plan.send_timeout;
  Plan rebuilt{.scenario = suites::find_scenario(plan.scenario),
               .target = chosen_target(as_checked),
               .timing = suites::timing(plan.scale),
               .expected = {}};
  if (!rebuilt.scenario) {
    throw std::invalid_argument(fmt::format("the shards ran scenario '{}', which this loiter "
                                            "does not know", plan.scenario));
  }
  rebuilt.expected = rebuilt.scenario->expect(rebuilt.target, rebuilt.timing, plan.parameters);
  return rebuilt;
}

// shards.json of the merged run directory: which shards it is made of, from where, how late.
std::string shards_json(const std::vector<suites::ShardData>& shards) {
  boost::json::array list;
  for (const auto& s : shards) {
    const auto& h = s.header;
    list.push_back(boost::json::object{
        {"dir", fs::absolute(s.dir).string()},
        {"shard", h.index},
        {"shards", h.count},
        {"host", h.host},
        {"pid", h.pid},
        {"lag_s", suites::in_seconds(h.lag.value_or(clients::Duration{}))},
        {"records", h.records},
        {"client_processes", h.client_processes}});
  }
  const auto& first = shards.front().header;
  return boost::json::serialize(boost::json::object{{"plan", suites::plan_to_json(first.plan)},
                                                    {"plan_hash", first.plan_hash},
                                                    {"start_at", suites::format_utc(first.start_at)},
                                                    {"shards", std::move(list)}}) +
         "\n";
}

int incomplete(const std::string& what, const std::vector<std::string>& problems) {
  fmt::print("INCOMPLETE  {}: not judged\n", what);
  for (const auto& p : problems) fmt::print("  - {}\n", p);
  return kInfrastructure;
}

// The judged run of the merged shards and the server's side.
suites::ScenarioResult judged(const Plan& plan, suites::MergedShards merged,
                              suites::ServerSide side, std::size_t pool) {
  suites::ScenarioResult result{.id = std::string(plan.scenario->id)};
  auto& o = result.observation;
  o.scenario = result.id;
  o.baseline = side.baseline;
  for (auto& fleet : merged.fleets) std::ranges::move(fleet, std::back_inserter(o.connections));
  if (merged.load) o.load = suites::LoadObservation{.result = std::move(*merged.load), .pool = pool};
  o.fds = side.fds;
  o.timeline = std::move(side.timeline);
  o.server_exit = side.server_exit;
  o.client_processes = merged.client_processes;
  result.expectations = plan.expected;
  result.stopped_early = o.load && o.load->result.stopped_early;
  result.verdict = suites::judge(o, result.expectations);
  return result;
}

}  // namespace

void add_merge_options(CLI::App& command, MergeOptions& options) {
  command.add_option("shards", options.shards, "the shard directories (one for each of the K)")
      ->required();
  command.add_option("--observe", options.observe,
                     "what `loiter observe` wrote on the server's machine over the run")
      ->required();
  command.add_option("--runs", options.runs_root, "where the merged run directory is made")
      ->capture_default_str();
  command
      .add_option("--start-tolerance", options.start_tolerance,
                  "seconds a shard may start its clients late against the shared start")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  command.add_option("--json", options.json_path, "also write the run document (report.json) here");
  command.add_option("--junit", options.junit_path, "also write a JUnit XML report here");
  command.footer(
      "Examples:\n"
      "  loiter merge runs/20261202T100000Z-nginx-shard-*-of-4 --observe runs/server\n"
      "\nExit codes: 0 passed, 1 failed, 2 a bad input, 3 incomplete (a shard missing, killed,\n"
      "failed or late; the server not watched over the whole run): never a pass.");
}

int run_merge(const MergeOptions& options) {
  const auto origin = clients::Clock::now();  // stands for the shared start in this process
  std::vector<suites::ShardData> shards;
  std::vector<std::string> unreadable;
  for (const auto& dir : options.shards) {
    if (!fs::is_directory(dir)) {
      std::cerr << "loiter: " << dir << " is not a shard directory\n";
      return kUsage;
    }
    try {
      shards.push_back(suites::read_shard(dir, origin));
    } catch (const std::exception& e) {  // a torn or missing file: a shard that did not end
      unreadable.push_back(e.what());
    }
  }
  if (!unreadable.empty()) return incomplete("shards unreadable", unreadable);
  const auto tolerance = std::chrono::duration_cast<clients::Duration>(
      std::chrono::duration<double>(options.start_tolerance));
  const auto check = suites::check_shards(shards, tolerance);
  const auto& first = shards.front().header;
  fmt::print("{} shards of {} against {} (plan {}), started {}; latest start {:.3f} s late "
             "(shard {}), tolerance {:.3f} s\n",
             shards.size(), first.plan.scenario, first.plan.server, first.plan_hash,
             suites::format_utc(first.start_at), suites::in_seconds(check.worst_lag),
             check.worst_lag_shard, options.start_tolerance);
  if (!check.problems.empty()) return incomplete(first.plan.scenario, check.problems);
  Plan plan;
  suites::ServerWatch watch;
  try {
    plan = rebuild(first.plan);
    watch = suites::read_server_watch(options.observe);
  } catch (const std::exception& e) {
    std::cerr << "loiter: " << e.what() << "\n";
    return kUsage;
  }
  const auto pool = first.plan.parameters.load_connections;
  const auto start_at = first.start_at;
  const auto provenance = shards_json(shards);
  auto merged = suites::merge_shards(std::move(shards));
  auto side = suites::server_side(
      watch, {.start_at = start_at, .clients_from = merged.clients_from,
              .clients_ended = merged.clients_ended},
      origin, plan.expected, plan.timing);
  if (!side.problems.empty()) return incomplete(std::string(plan.scenario->id), side.problems);
  const auto result = judged(plan, std::move(merged), std::move(side), pool);
  std::optional<suites::RunDirectory> directory;
  try {
    directory.emplace(options.runs_root, plan.target.name);
    directory->add_scenario(result);
    suites::write_file(directory->path() / "shards.json", provenance);
  } catch (const std::exception& e) {
    std::cerr << "loiter: " << e.what() << "\n";
    return kInfrastructure;
  }
  reports::RunReport report{.loiter_version = LOITER_VERSION,
                            .target = plan.target.name,
                            .target_description = plan.target.description,
                            .target_tls = suites::target_tls(plan.target),
                            .target_protocol = suites::target_protocol(plan.target),
                            .started_at = suites::format_utc(start_at),
                            .scenarios = {suites::to_report(result)}};
  return finish_run(report, *directory, {.json = options.json_path, .junit = options.junit_path});
}

}  // namespace loiter::cli
