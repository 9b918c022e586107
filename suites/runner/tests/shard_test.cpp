// Shards of one run: the plan's hash is the same for any K, the shard's files carry its load
// whole (histograms, not percentiles), shards' loads merge by adding counts, and the merge's
// check names every way a set of shards is not a whole run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "loiter/suites/runner/load_json.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "loiter/suites/runner/shard_merge.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

ShardPlan a_plan() {
  ShardPlan plan{.scenario = "idle-under-load", .target = "nginx", .server = "127.0.0.1:8080"};
  plan.parameters.count = 1050;
  plan.parameters.load_rate = 100;
  plan.parameters.load_duration = 2s;
  plan.parameters.load_connections = 8;
  plan.loiter_version = "0.1.0";
  return plan;
}

// The plan is what every shard agrees on, whatever K: one run of it as 1 or 4 shards has
// one hash; any parameter changes it; it survives its JSON.
TEST(Shard, ThePlanHashIsTheSameForAnyKAndChangesWithTheParameters) {
  const auto plan = a_plan();
  EXPECT_EQ(plan_hash(plan).size(), 16u);
  EXPECT_EQ(plan_hash(plan_from_json(plan_to_json(plan))), plan_hash(plan));
  auto more = plan;
  more.parameters.count = 1051;
  EXPECT_NE(plan_hash(more), plan_hash(plan));
  auto elsewhere = plan;
  elsewhere.server = "127.0.0.1:8081";
  EXPECT_NE(plan_hash(elsewhere), plan_hash(plan));
}

// A plan carries the target's key settings (--set and its sugar), in order: each shard and
// the merge build the same target from them, and a shard set otherwise has another hash.
TEST(Shard, ThePlanCarriesTheKeySettingsThroughItsJson) {
  auto plan = a_plan();
  plan.settings = {"deadlines.header=1", "promises.send_timeout=3"};
  const auto back = plan_from_json(plan_to_json(plan));
  EXPECT_EQ(back.settings, plan.settings);
  EXPECT_EQ(plan_hash(back), plan_hash(plan));
  EXPECT_NE(plan_hash(plan), plan_hash(a_plan()));
  auto other = plan;
  other.settings = {"deadlines.header=2", "promises.send_timeout=3"};
  EXPECT_NE(plan_hash(other), plan_hash(plan));
  EXPECT_TRUE(plan_from_json(plan_to_json(a_plan())).settings.empty());
}

// RFC 3339 UTC whole seconds, both ways; anything else is refused with the text named.
TEST(Shard, StartTimesAreRfc3339UtcBothWays) {
  const auto t = parse_utc("2026-12-02T10:00:05Z");
  EXPECT_EQ(format_utc(t), "2026-12-02T10:00:05Z");
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count(),
            1796205605);
  EXPECT_EQ(shard_directory_name(t, "nginx", 2, 4), "20261202T100005Z-nginx-shard-2-of-4");
  for (const char* bad : {"2026-12-02 10:00:05", "2026-12-02T10:00:05+01:00", "tomorrow",
                          "2026-13-02T10:00:05Z", "2026-12-02T10:00:05Zx", "2026-12-2T10:00:05Z",
                          "2026-02-31T10:00:05Z"}) {
    EXPECT_THROW(parse_utc(bad), std::invalid_argument) << bad;
  }
}

clients::LoadResult a_load(clients::Clock::time_point origin, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int64_t> latency(100'000, 90'000'000);
  clients::LoadResult r;
  r.requested = r.dispatched = 500;
  r.succeeded = 498;
  r.non_2xx[503] = 1;
  r.errors["reset"] = 1;
  r.goaways["NO_ERROR"] = 2;  // an HTTP/2 load's
  r.started = origin;
  r.ended = origin + 2s + std::chrono::nanoseconds(seed);
  r.seconds.resize(2);
  for (int i = 0; i < 500; ++i) {
    const clients::Duration d(latency(random));
    r.from_intended.record(d);
    r.from_sent.record(d / 2);
    auto& s = r.seconds[i % 2];
    ++s.requested;
    s.latency.record(d);
  }
  r.scheduled = 2s;
  return r;
}

// A shard's load.json gives back the same result: counts, times and every histogram.
TEST(Shard, ALoadResultSurvivesItsJson) {
  const auto origin = clients::Clock::now();
  const auto r = a_load(origin, 7);
  const auto back = load_from_json(load_to_json(r, origin), origin);
  EXPECT_EQ(back.succeeded, 498u);
  EXPECT_EQ(back.non_2xx.at(503), 1u);
  EXPECT_EQ(back.errors.at("reset"), 1u);
  EXPECT_EQ(back.goaways.at("NO_ERROR"), 2u);
  EXPECT_EQ(back.ended, r.ended);
  EXPECT_EQ(back.from_intended.count(), 500u);
  for (const double p : {50.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(back.from_intended.percentile(p), r.from_intended.percentile(p)) << p;
    EXPECT_EQ(back.seconds[1].latency.percentile(p), r.seconds[1].latency.percentile(p)) << p;
  }
  EXPECT_EQ(back.from_sent.mean(), r.from_sent.mean());
  EXPECT_EQ(back.seconds[0].p99, r.seconds[0].latency.percentile(99));
}

// A load.json of an older loiter, without the keys added since (goaways, close_kept), reads
// them as none; the merge of shards of older loiters still works.
TEST(Shard, AnOlderLoadJsonReadsWhatItLacksAsNone) {
  const auto origin = clients::Clock::now();
  auto r = a_load(origin, 7);
  r.close_kept = 3;
  auto json = load_to_json(r, origin);
  EXPECT_EQ(load_from_json(json, origin).close_kept, 3u);
  json.as_object().erase("close_kept");
  json.as_object().erase("goaways");
  const auto back = load_from_json(json, origin);
  EXPECT_EQ(back.close_kept, 0u);
  EXPECT_TRUE(back.goaways.empty());
  EXPECT_EQ(back.succeeded, r.succeeded);
}

// The client's own cost goes into load.json where the engine measured it, and merges as
// the run's: the busiest shard's load thread, every shard's CPU, per second too.
TEST(Shard, TheClientsCostSurvivesItsJsonAndMerges) {
  const auto origin = clients::Clock::now();
  auto r = a_load(origin, 7);
  EXPECT_FALSE(load_to_json(r, origin).as_object().contains("client"));  // unmeasured: as ever
  r.client = {.wall_s = 2.5, .busy = 0.4, .cpu_s = 1.25};
  r.seconds[0].client_cpu_s = 0.5;
  r.seconds[1].client_cpu_s = 0.75;
  const auto back = load_from_json(load_to_json(r, origin), origin);
  EXPECT_EQ(back.client, r.client);
  EXPECT_EQ(back.seconds[1].client_cpu_s, 0.75);
  auto other = r;
  other.client = {.wall_s = 2.0, .busy = 0.9, .cpu_s = 2.0};
  merge_load(r, other);
  EXPECT_EQ(r.client, (clients::ClientCost{.wall_s = 2.5, .busy = 0.9, .cpu_s = 3.25}));
  EXPECT_EQ(r.seconds[1].client_cpu_s, 1.5);
}

// Merged shards hold the p99 of all their requests together, which no combination of
// their own p99s gives: the histograms are added.
TEST(Shard, MergedLoadsAddTheirHistogramsNotTheirPercentiles) {
  const auto origin = clients::Clock::now();
  auto sum = a_load(origin, 1);
  const auto other = a_load(origin, 2);
  clients::LatencyHistogram all = sum.from_intended;
  all.merge(other.from_intended);
  merge_load(sum, other);
  EXPECT_EQ(sum.requested, 1000u);
  EXPECT_EQ(sum.errors.at("reset"), 2u);
  EXPECT_EQ(sum.goaways.at("NO_ERROR"), 4u);
  EXPECT_EQ(sum.from_intended.count(), 1000u);
  EXPECT_EQ(sum.from_intended.percentile(99), all.percentile(99));
  EXPECT_EQ(sum.seconds[0].requested, 500u);
  EXPECT_EQ(sum.seconds[0].p99, sum.seconds[0].latency.percentile(99));
  EXPECT_EQ(sum.ended, other.ended);
}

// K shards of a plan of `count` connections in one fleet and `rate` for 2 s: each whole.
std::vector<ShardData> whole_shards(std::size_t shards, std::size_t count) {
  const auto plan = a_plan();
  const auto origin = clients::Clock::now();
  const auto start = parse_utc("2026-12-02T10:00:00Z");
  std::vector<ShardData> out;
  for (std::size_t k = 0; k < shards; ++k) {
    ShardData d{.dir = "shard-" + std::to_string(k)};
    d.header = {.plan = plan,
                .plan_hash = plan_hash(plan),
                .index = k,
                .count = shards,
                .start_at = start,
                .status = ShardStatus::complete,
                .lag = 2ms,
                .ended = start + 3s,
                .fleets = {count}};
    for (std::size_t i = k; i < count; i += shards) d.records.push_back({.fleet = 0, .index = i});
    d.header.records = d.records.size();
    d.load = clients::LoadResult{};
    d.load->requested = share_of_requests(schedule_requests(100, 2s), k, shards);
    d.load->started = origin;
    out.push_back(std::move(d));
  }
  return out;
}

std::string all(const ShardCheck& check) {
  std::string text;
  for (const auto& p : check.problems) text += p + "\n";
  return text;
}

// Whole shards are whole; their union is every connection once, in index order.
TEST(ShardCheck, WholeShardsAreWholeAndMergeIntoOneFleet) {
  auto shards = whole_shards(4, 10);
  const auto check = check_shards(shards, 1s);
  EXPECT_THAT(check.problems, IsEmpty()) << all(check);
  EXPECT_EQ(check.worst_lag, 2ms);
  const auto merged = merge_shards(std::move(shards));
  ASSERT_EQ(merged.fleets.size(), 1u);
  EXPECT_EQ(merged.fleets[0].size(), 10u);
  EXPECT_EQ(merged.load->requested, 200u);
}

// A shard never given (never started, lost) makes the set incomplete, by name.
TEST(ShardCheck, AMissingShardIsNamed) {
  auto shards = whole_shards(4, 10);
  shards.erase(shards.begin() + 1);
  EXPECT_THAT(all(check_shards(shards, 1s)), HasSubstr("shard 1 of 4 is missing"));
}

// shard.json says a status in words; each reads back as itself, and no other word is taken.
TEST(ShardFiles, StatusesReadBackAndAnUnknownOneIsRefused) {
  for (const auto status : {ShardStatus::waiting, ShardStatus::running, ShardStatus::complete,
                            ShardStatus::interrupted, ShardStatus::failed}) {
    EXPECT_EQ(shard_status_from(to_string(status)), status) << to_string(status);
  }
  EXPECT_EQ(to_string(ShardStatus::interrupted), "interrupted");
  EXPECT_THROW(shard_status_from("done"), std::invalid_argument);
}

// A shard killed mid-run left its status "running": not finished, whatever it wrote.
TEST(ShardCheck, AKilledShardIsNotFinished) {
  auto shards = whole_shards(4, 10);
  shards[2].header.status = ShardStatus::running;
  shards[3].header.status = ShardStatus::interrupted;
  const auto text = all(check_shards(shards, 1s));
  EXPECT_THAT(text, HasSubstr("shard 2 of 4 did not finish"));
  EXPECT_THAT(text, HasSubstr("killed"));
  EXPECT_THAT(text, HasSubstr("shard 3 of 4 did not finish"));
}

// A shard of another plan, count or start, a shard given twice, a late one: each named.
TEST(ShardCheck, ShardsThatDisagreeOrRepeatOrCameLateAreNamed) {
  auto shards = whole_shards(3, 9);
  shards[1].header.plan_hash = "0000000000000000";
  EXPECT_THAT(all(check_shards(shards, 1s)), HasSubstr("has plan 0000000000000000"));
  shards = whole_shards(3, 9);
  shards.push_back(shards[0]);
  EXPECT_THAT(all(check_shards(shards, 1s)), HasSubstr("shard 0 of 3 given twice"));
  shards = whole_shards(3, 9);
  shards[2].header.lag = 1500ms;
  const auto late = check_shards(shards, 1s);
  EXPECT_THAT(all(late), HasSubstr("shard 2 of 3 started its clients 1.500 s late"));
  EXPECT_EQ(late.worst_lag_shard, 2u);
}

// Records not all there, or on the wrong shard, and a share of the schedule not all
// requested: each named.
TEST(ShardCheck, MissingOrStrayRecordsAndShortLoadsAreNamed) {
  auto shards = whole_shards(2, 10);
  shards[0].records.pop_back();
  auto text = all(check_shards(shards, 1s));
  EXPECT_THAT(text, HasSubstr("shard 0 of 2 holds 4 of the 5 records it wrote"));
  EXPECT_THAT(text, HasSubstr("fleet 0: 9 connection records of 10 planned"));
  shards = whole_shards(2, 10);
  shards[1].records[0].index = 2;
  EXPECT_THAT(all(check_shards(shards, 1s)), HasSubstr("holds connection 2 of fleet 0, not one"));
  shards = whole_shards(2, 10);
  shards[1].load->requested -= 1;
  EXPECT_THAT(all(check_shards(shards, 1s)),
              HasSubstr("shard 1 of 2 requested 99 of the 100 requests of its share"));
}

// What a shard writes is what the merge reads: header, records with fleet and index, load.
TEST(Shard, ItsDirectoryReadsBackAsWritten) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("loiter-shard-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto shard = whole_shards(2, 6)[1];
  const auto origin = clients::Clock::now();
  ShardOutput out{.records = shard.records, .fleets = {6}, .load = a_load(origin, 3)};
  for (auto& r : out.records) {
    r.record.kind = "silent";
    r.record.connect_start = origin + 5ms;
  }
  write_shard_header(dir, shard.header);
  write_shard_output(dir, out, origin);
  const auto back = read_shard(dir, origin);
  EXPECT_EQ(back.header.plan_hash, shard.header.plan_hash);
  EXPECT_EQ(back.header.index, 1u);
  EXPECT_EQ(back.header.start_at, shard.header.start_at);
  EXPECT_EQ(back.header.lag, 2ms);
  ASSERT_EQ(back.records.size(), 3u);
  EXPECT_EQ(back.records[2].index, 5u);
  EXPECT_EQ(back.records[2].record.connect_start, origin + 5ms);
  ASSERT_TRUE(back.load);
  EXPECT_EQ(back.load->from_intended.percentile(99), out.load->from_intended.percentile(99));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loiter::suites
