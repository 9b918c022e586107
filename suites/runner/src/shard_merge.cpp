// Whether shards make a whole run, and their union.
#include "loiter/suites/runner/shard_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/runner/load_json.hpp"

namespace loiter::suites {

namespace {

std::string name(const ShardHeader& h) { return fmt::format("shard {} of {}", h.index, h.count); }

// The same plan, shard count and start as the first shard, or the problem.
void check_agreement(const std::vector<ShardData>& shards, std::vector<std::string>& problems) {
  const auto& first = shards.front().header;
  for (const auto& shard : shards) {
    const auto& h = shard.header;
    if (h.plan_hash != first.plan_hash) {
      problems.push_back(fmt::format(
          "{} ({}) has plan {} ({} against {}); {} has plan {} ({} against {})", name(h),
          shard.dir.string(), h.plan_hash, h.plan.scenario, h.plan.server, name(first),
          first.plan_hash, first.plan.scenario, first.plan.server));
    }
    if (h.count != first.count || h.start_at != first.start_at) {
      problems.push_back(fmt::format("{} ({}) starts at {} as 1 of {}; {} at {} as 1 of {}",
                                     name(h), shard.dir.string(), format_utc(h.start_at), h.count,
                                     name(first), format_utc(first.start_at), first.count));
    }
  }
}

// Every shard 0 … K-1 once, each finished.
void check_presence(const std::vector<ShardData>& shards, std::vector<std::string>& problems) {
  const std::size_t count = shards.front().header.count;
  std::map<std::size_t, std::string> seen;
  for (const auto& shard : shards) {
    const auto& h = shard.header;
    if (h.index >= count) continue;  // another count: named by check_agreement
    if (auto [at, fresh] = seen.emplace(h.index, shard.dir.string()); !fresh) {
      problems.push_back(fmt::format("{} given twice: {} and {}", name(h), at->second,
                                     shard.dir.string()));
    }
    if (h.status == ShardStatus::complete) continue;
    const auto why = h.status == ShardStatus::failed ? fmt::format("it failed: {}", h.error)
                     : h.status == ShardStatus::interrupted
                         ? std::string("it was interrupted (Ctrl-C)")
                         : fmt::format("its status is still '{}': killed, or still running",
                                       to_string(h.status));
    problems.push_back(fmt::format("{} did not finish ({}): {}", name(h), shard.dir.string(), why));
  }
  for (std::size_t k = 0; k < count; ++k) {
    if (!seen.contains(k)) {
      problems.push_back(fmt::format(
          "shard {} of {} is missing: no directory of it was given (never started, or lost)", k,
          count));
    }
  }
}

// Every connection of every fleet once, on its own shard; each shard's records all there.
void check_records(const std::vector<ShardData>& shards, std::vector<std::string>& problems) {
  const auto& fleets = shards.front().header.fleets;
  std::vector<std::size_t> recorded(fleets.size());
  for (const auto& shard : shards) {
    const auto& h = shard.header;
    if (h.fleets != fleets) {
      problems.push_back(fmt::format("{} has fleets of {} connections, {} of {}", name(h),
                                     fmt::join(h.fleets, "/"), name(shards.front().header),
                                     fmt::join(fleets, "/")));
      continue;
    }
    if (shard.records.size() != h.records) {
      problems.push_back(fmt::format("{} holds {} of the {} records it wrote", name(h),
                                     shard.records.size(), h.records));
    }
    for (const auto& r : shard.records) {
      if (r.fleet >= fleets.size() || r.index >= fleets[r.fleet] || r.index % h.count != h.index) {
        problems.push_back(fmt::format("{} holds connection {} of fleet {}, not one of its own",
                                       name(h), r.index, r.fleet));
        break;
      }
      ++recorded[r.fleet];
    }
  }
  for (std::size_t f = 0; f < fleets.size(); ++f) {
    if (recorded[f] != fleets[f]) {
      problems.push_back(fmt::format("fleet {}: {} connection records of {} planned", f,
                                     recorded[f], fleets[f]));
    }
  }
}

// Each shard requested its share of the schedule (unless a soak was stopped early).
void check_load(const std::vector<ShardData>& shards, std::vector<std::string>& problems) {
  const bool any = std::ranges::any_of(shards, [](const auto& s) { return s.load.has_value(); });
  if (!any) return;
  for (const auto& shard : shards) {
    const auto& h = shard.header;
    if (!shard.load) {
      problems.push_back(fmt::format("{} has no load.json: its regular traffic is missing", name(h)));
      continue;
    }
    if (shard.load->stopped_early) continue;
    const auto& p = h.plan.parameters;
    const auto owed = share_of_requests(schedule_requests(p.load_rate, p.load_duration), h.index,
                                        h.count);
    if (shard.load->requested != owed) {
      problems.push_back(fmt::format("{} requested {} of the {} requests of its share", name(h),
                                     shard.load->requested, owed));
    }
  }
}

}  // namespace

std::uint64_t schedule_requests(double rate, clients::Duration duration) {
  return static_cast<std::uint64_t>(
      std::floor(rate * std::chrono::duration<double>(duration).count()));
}

std::uint64_t share_of_requests(std::uint64_t requests, std::size_t index, std::size_t count) {
  return requests > index ? (requests - index + count - 1) / count : 0;
}

ShardCheck check_shards(const std::vector<ShardData>& shards, clients::Duration tolerance) {
  ShardCheck check;
  if (shards.empty()) {
    check.problems.push_back("no shard directory was given");
    return check;
  }
  check_agreement(shards, check.problems);
  check_presence(shards, check.problems);
  if (!check.problems.empty()) return check;  // the rest compares shards of one whole run
  for (const auto& shard : shards) {
    const auto& h = shard.header;
    const auto lag = h.lag.value_or(clients::Duration::max());
    if (lag >= check.worst_lag) {
      check.worst_lag = lag;
      check.worst_lag_shard = h.index;
    }
    if (lag > tolerance) {
      check.problems.push_back(fmt::format(
          "{} started its clients {:.3f} s late against the shared start (tolerance {:.3f} s): "
          "its timeline was not the others'",
          name(h), in_seconds(lag), in_seconds(tolerance)));
    }
  }
  check_records(shards, check.problems);
  check_load(shards, check.problems);
  return check;
}

ShardsRead read_shards(const std::vector<std::filesystem::path>& dirs,
                       clients::Duration tolerance) {
  ShardsRead read{.origin = clients::Clock::now()};
  for (const auto& dir : dirs) {
    try {
      read.shards.push_back(read_shard(dir, read.origin));
    } catch (const std::exception& e) {
      read.unreadable.push_back(e.what());
    }
  }
  if (read.unreadable.empty()) read.check = check_shards(read.shards, tolerance);
  return read;
}

MergedShards merge_shards(std::vector<ShardData> shards) {
  MergedShards merged;
  std::vector<FleetRecord> records;
  const std::size_t fleets = shards.empty() ? 0 : shards.front().header.fleets.size();
  for (auto& shard : shards) {
    std::ranges::move(shard.records, std::back_inserter(records));
    merged.client_processes += shard.header.client_processes;
    if (shard.header.ended) merged.clients_ended = std::max(merged.clients_ended, *shard.header.ended);
    const auto from = shard.header.clients_from.value_or(shard.header.start_at);
    merged.clients_from = std::min(merged.clients_from, from);
    if (!shard.load) continue;
    if (!merged.load) {
      merged.load = std::move(shard.load);
    } else {
      merge_load(*merged.load, *shard.load);
    }
  }
  merged.fleets = merge_fleets(std::move(records), fleets);
  return merged;
}

}  // namespace loiter::suites
