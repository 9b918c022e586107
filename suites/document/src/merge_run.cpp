// `loiter merge`'s run: the plan rebuilt, the shards' union with the server's side, the
// observation assembled and judged, and shards.json saying where each shard came from.
#include "loiter/suites/document/merge_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "loiter/fixtures/provenance.hpp"
#include "loiter/suites/document/server_side.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/runner/target_choice.hpp"

namespace loiter::suites {

namespace {

namespace fs = std::filesystem;

// shards.json of the merged run directory: which shards it is made of, from where, how late.
std::string shards_json(const std::vector<ShardData>& shards) {
  boost::json::array list;
  for (const auto& s : shards) {
    const auto& h = s.header;
    list.push_back(boost::json::object{{"dir", fs::absolute(s.dir).string()},
                                       {"shard", h.index},
                                       {"shards", h.count},
                                       {"host", h.host},
                                       {"pid", h.pid},
                                       {"lag_s", in_seconds(h.lag.value_or(clients::Duration{}))},
                                       {"records", h.records},
                                       {"client_processes", h.client_processes}});
  }
  const auto& first = shards.front().header;
  return boost::json::serialize(boost::json::object{{"plan", plan_to_json(first.plan)},
                                                    {"plan_hash", first.plan_hash},
                                                    {"start_at", format_utc(first.start_at)},
                                                    {"shards", std::move(list)}}) +
         "\n";
}

// The judged run of the merged shards and the server's side.
ScenarioResult judged(const MergeBasis& basis, MergedShards merged, ServerSide side,
                      std::size_t pool) {
  ScenarioResult result{.id = std::string(basis.scenario->id)};
  auto& o = result.observation;
  o.scenario = result.id;
  o.baseline = side.baseline;
  for (auto& fleet : merged.fleets) std::ranges::move(fleet, std::back_inserter(o.connections));
  if (merged.load) o.load = LoadObservation{.result = std::move(*merged.load), .pool = pool};
  o.fds = side.fds;
  o.timeline = std::move(side.timeline);
  o.server_exit = side.server_exit;
  o.client_processes = merged.client_processes;
  result.expectations = basis.expected;
  result.stopped_early = o.load && o.load->result.stopped_early;
  result.verdict = judge(o, result.expectations);
  return result;
}

}  // namespace

MergeBasis merge_basis(const ShardPlan& plan, const fs::path& observe) {
  if (!plan.target_sha256.empty() &&
      (!fs::is_regular_file(plan.target) ||
       fixtures::sha256_of_file(plan.target) != plan.target_sha256)) {
    throw std::invalid_argument(
        fmt::format("the target file {} is not the one the shards ran with (SHA-256 {})",
                    plan.target, plan.target_sha256));
  }
  MergeBasis basis{
      .scenario = find_scenario(plan.scenario),
      .target = choose_target({.name = plan.target, .settings = plan.settings, .faults = {}}),
      .timing = timing(plan.scale),
      .expected = {},
      .watch = {}};
  if (!basis.scenario) {
    throw std::invalid_argument(
        fmt::format("the shards ran scenario '{}', which this loiter "
                    "does not know",
                    plan.scenario));
  }
  basis.expected = basis.scenario->expect(basis.target, basis.timing, plan.parameters);
  basis.watch = read_server_watch(observe);
  return basis;
}

MergedRun merge_run(ShardsRead shards, const MergeBasis& basis) {
  const auto& first = shards.shards.front().header;
  MergedRun run{.problems = {},
                .result = {},
                .start_at = first.start_at,
                .shards_json = shards_json(shards.shards)};
  const auto pool = first.plan.parameters.load_connections;
  auto merged = merge_shards(std::move(shards.shards));
  auto side = server_side(basis.watch,
                          {.start_at = run.start_at,
                           .clients_from = merged.clients_from,
                           .clients_ended = merged.clients_ended},
                          shards.origin, basis.expected, basis.timing);
  if (!side.problems.empty()) {
    run.problems = std::move(side.problems);
    return run;
  }
  run.result = judged(basis, std::move(merged), std::move(side), pool);
  return run;
}

}  // namespace loiter::suites
