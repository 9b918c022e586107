// A shard's files byte for byte: shard.json, records.jsonl and load.json of fixed data are
// what tests/golden holds (what loiter has always written: `loiter merge` reads shards of
// older loiters, and the plan's hash is of these bytes), and those files read back write
// the same bytes again.
#include <gtest/gtest.h>

#include <filesystem>

#include "golden.hpp"
#include "loiter/fixtures/os/temp_directory.hpp"
#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using reports::testing::golden_or_update;

// A soak's plan (churn, a fraction of zero, settings) and a shard that ended: every key set.
ShardHeader a_header() {
  ShardHeader h;
  h.plan = {.scenario = "soak",
            .target = "./mine.toml",
            .target_sha256 = "0123abcd",
            .settings = {"deadlines.header=1.5", "promises.send_timeout=3"},
            .server = "127.0.0.1:8080",
            .parameters = {},
            .scale = 1.0,
            .loiter_version = "0.1.0"};
  h.plan.parameters.count = 0;
  h.plan.parameters.load_rate = 15000;
  h.plan.parameters.load_duration = 1800s;
  h.plan.parameters.load_connections = 32;
  h.plan.parameters.churn = clients::Churn{.fresh = 0.05,
                                           .server_close = 0,
                                           .abort = 0.005,
                                           .replace_every = 1000,
                                           .abort_path = "/large?bytes=1000000"};
  h.plan_hash = plan_hash(h.plan);
  h.index = 1;
  h.count = 4;
  h.start_at = parse_utc("2026-12-02T10:00:00Z");
  h.status = ShardStatus::complete;
  h.lag = 3'241'539ns;
  h.clients_from = h.start_at - 297'000'123us;
  h.ended = h.start_at + 1'800'047'331us;
  h.fleets = {10, 5};
  h.records = 1;
  h.client_processes = 2;
  h.stopped_early = true;
  h.host = "vm";
  h.pid = 10850;
  return h;
}

// A load with every kind of count, odd nanoseconds and a histogram whose sum is whole.
clients::LoadResult a_load(clients::Clock::time_point origin) {
  clients::LoadResult r;
  r.requested = 600;
  r.dispatched = 599;
  r.succeeded = 590;
  r.aborted = 2;
  r.fresh_closed = 31;
  r.server_closed = 12;
  r.close_kept = 4;
  r.replaced = 1;
  r.non_2xx = {{404, 2}, {503, 1}};
  r.errors = {{"reset", 3}, {"timeout", 1}};
  r.goaways = {{"NO_ERROR", 2}};
  for (const auto ns : {120'001ns, 250'000ns, 3'000'017ns}) r.from_intended.record(ns);
  r.from_sent.record(99'999ns);
  r.max_send_lag = 1'234'567ns;
  r.max_sends_in_one_ms = 7;
  r.connections_opened = 33;
  r.started = origin + 1'000'000'001ns;
  r.ended = origin + 4'000'047'331ns;
  r.seconds.resize(2);
  r.seconds[0] = {.requested = 300, .dispatched = 300, .succeeded = 299, .failed = 1};
  r.seconds[0].latency.record(250'000ns);
  r.seconds[1] = {.requested = 300, .dispatched = 299, .succeeded = 291, .failed = 0};
  r.scheduled = 3s;
  r.stopped_early = true;
  r.first_window.record(120'001ns);
  return r;
}

ShardOutput an_output(clients::Clock::time_point origin) {
  clients::ConnectionRecord record;
  record.kind = "silent";
  record.source = "127.0.0.1:40312";
  record.connect_start = origin + 1'500'000'001ns;
  record.connect_took = 123'457ns;
  record.ending = clients::Ending::close;
  record.ended_at = 2'000'000'021ns;
  return {.records = {{.fleet = 0, .index = 3, .record = record}},
          .fleets = {10, 5},
          .load = a_load(origin)};
}

// A shard still waiting for its start, of a plan without churn: its times not yet known.
ShardHeader a_waiting_header() {
  auto h = a_header();
  h.plan.parameters = {};
  h.plan.parameters.count = 100;
  h.plan.scale = 2.5;
  h.plan_hash = plan_hash(h.plan);
  h.status = ShardStatus::waiting;
  h.lag.reset();
  h.clients_from.reset();
  h.ended.reset();
  h.stopped_early = false;
  return h;
}

TEST(ShardBytes, TheHeaderIsWrittenAsEver) {
  const fixtures::TempDirectory scratch("loiter-shard-bytes-");
  for (const auto& [header, name] :
       {std::pair{a_header(), "shard.json"}, std::pair{a_waiting_header(), "shard-waiting.json"}}) {
    write_shard_header(scratch.path(), header);
    const auto text = read_file(scratch.path() / "shard.json");
    EXPECT_EQ(text, golden_or_update(name, text)) << name;  // its plan_hash too
  }
}

TEST(ShardBytes, AHeaderReadBackIsWrittenTheSame) {
  const fixtures::TempDirectory scratch("loiter-shard-bytes-");
  for (const char* name : {"shard.json", "shard-waiting.json"}) {
    fs::copy_file(fs::path(LOITER_GOLDEN_DIR) / name, scratch.path() / "shard.json",
                  fs::copy_options::overwrite_existing);
    const auto header = read_shard_header(scratch.path());
    EXPECT_EQ(plan_hash(header.plan), header.plan_hash) << name;
    write_shard_header(scratch.path(), header);
    EXPECT_EQ(read_file(scratch.path() / "shard.json"), reports::testing::read_golden(name))
        << name;
  }
}

TEST(ShardBytes, RecordsAndLoadAreWrittenAsEver) {
  const fixtures::TempDirectory scratch("loiter-shard-bytes-");
  const auto origin = clients::Clock::now();
  write_shard_output(scratch.path(), an_output(origin), origin);
  const auto records = read_file(scratch.path() / "records.jsonl");
  EXPECT_EQ(records, golden_or_update("records.jsonl", records));
  const auto load = read_file(scratch.path() / "load.json");
  EXPECT_EQ(load, golden_or_update("load.json", load));
}

TEST(ShardBytes, RecordsAndLoadReadBackAreWrittenTheSame) {
  const fixtures::TempDirectory scratch("loiter-shard-bytes-");
  for (const char* name : {"shard.json", "records.jsonl", "load.json"}) {
    fs::copy_file(fs::path(LOITER_GOLDEN_DIR) / name, scratch.path() / name);
  }
  const auto origin = clients::Clock::now();
  const auto data = read_shard(scratch.path(), origin);
  ASSERT_TRUE(data.load.has_value());
  EXPECT_EQ(data.load->seconds[0].p99, data.load->seconds[0].latency.percentile(99));
  write_shard_output(scratch.path(),
                     {.records = data.records, .fleets = data.header.fleets, .load = data.load},
                     origin);
  EXPECT_EQ(read_file(scratch.path() / "records.jsonl"),
            reports::testing::read_golden("records.jsonl"));
  EXPECT_EQ(read_file(scratch.path() / "load.json"), reports::testing::read_golden("load.json"));
}

}  // namespace
}  // namespace loiter::suites
