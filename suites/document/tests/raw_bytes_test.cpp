// The raw files byte for byte: a timeline, a provenance and a watch's observe.json and
// samples.jsonl of fixed data are what tests/golden holds (what loiter has always written),
// and a watch read back from those files writes the same bytes again.
#include <gtest/gtest.h>

#include <array>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "golden.hpp"
#include "loiter/fixtures/os/temp_directory.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/suites/document/raw_json.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/suites/runner/files.hpp"
#include "process_samples.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using reports::testing::golden_or_update;
using reports::testing::read_golden;
using std::chrono::system_clock;

// A fresh directory under $TMPDIR, removed with the object, and a watch's directory in it
// (not made).
struct RawScratch {
  fixtures::TempDirectory root{"loiter-raw-bytes-"};
  fs::path dir = root.path() / "watch";
};

// Three kinds of sample: counted by type with TCP states, a TCP problem, the server gone.
std::vector<fixtures::ProcessSample> three_samples() {
  auto full = testing::full_sample(12);
  full.cpu_seconds = 1.25;  // not written
  fixtures::ProcessSample problem{.processes = 1, .fds = 9, .rss_kib = 100, .threads = 1};
  problem.tcp_problem = "sock_diag: Operation not permitted";
  return {full, problem, {}};
}

TEST(RawBytes, ATimelineIsWrittenAsEver) {
  const auto origin = clients::Clock::now();
  std::vector<fixtures::TimedSample> timeline;
  const clients::Duration at[] = {0ns, 1'500'000'000ns, 2'000'000'001ns};
  for (std::size_t i = 0; i < 3; ++i) timeline.push_back({origin + at[i], three_samples()[i]});
  const auto text = reports::compact_text(timeline_to_json(timeline, origin)) + "\n";
  EXPECT_EQ(text, golden_or_update("timeline.json", text));
}

TEST(RawBytes, SamplesReadBackAreWrittenTheSame) {
  const auto timeline = boost::json::parse(read_golden("timeline.json"));
  for (const auto& sample : timeline.at("samples").as_array()) {
    boost::json::object fields;  // all but "t", in order
    for (const auto& [key, value] : sample.as_object()) {
      if (key != "t") fields[key] = value;
    }
    EXPECT_EQ(boost::json::serialize(sample_to_json(sample_from_json(sample))),
              boost::json::serialize(fields));
  }
}

// An HTTP/3 server's sample keeps its UDP view, read back equal; a view that could not be
// read leaves its problem instead.
TEST(RawBytes, ASamplesUdpViewIsWrittenAndReadBack) {
  fixtures::ProcessSample read{.processes = 1, .fds = 9, .rss_kib = 100, .threads = 1};
  read.udp = fixtures::UdpCounts{
      .port = 8443, .sockets = 1, .rx_queue = 2304, .drops = 17, .rcvbuf_errors = 9,
      .in_errors = 11};
  const auto json = sample_to_json(read);
  EXPECT_EQ(boost::json::serialize(json.at("udp")),
            R"({"port":8443,"sockets":1,"rx_queue":2304,"drops":17,"rcvbuf_errors":9,)"
            R"("in_errors":11})");
  EXPECT_FALSE(json.contains("udp_problem"));
  EXPECT_EQ(sample_from_json(json).udp, read.udp);
  fixtures::ProcessSample unread{.processes = 1, .fds = 9, .rss_kib = 100, .threads = 1};
  unread.udp_problem = "cannot read /proc/net/snmp";
  const auto without = sample_to_json(unread);
  EXPECT_FALSE(without.contains("udp"));
  EXPECT_EQ(without.at("udp_problem").as_string(), "cannot read /proc/net/snmp");
  EXPECT_EQ(sample_from_json(without).udp_problem, unread.udp_problem);
}

TEST(RawBytes, AProvenanceIsWrittenAsEver) {
  fixtures::Provenance p{.target = "nginx",
                         .target_source = "nginx.toml",
                         .server_binary = "/usr/sbin/nginx",
                         .server_sha256 = "ab12",
                         .command = {"/usr/sbin/nginx", "-c", "/tmp/x \"y\".conf"},
                         .environment = {{"LANG", "C"}, {"TZ", "UTC"}},
                         .environment_inherited = false,
                         .kernel = "Linux 6.1.0 #1 SMP x86_64",
                         .server_nofile = fixtures::ResourceLimit{.soft = 1024, .hard = 524288},
                         .loiter_nofile = {.soft = 65536, .hard = std::nullopt},
                         .server_cpus = {0, 1},
                         .client_cpus = {},
                         .online_cpus = 2,
                         .containment = "pid-namespace",
                         .server_processes = 3,
                         .server_threads = 4,
                         .loiter_version = "0.1.0",
                         .build_type = "Release",
                         .problems = {"no /proc/1/limits"}};
  std::ostringstream text;
  reports::write_pretty(provenance_to_json(p), text);
  auto without = p;
  without.server_nofile.reset();
  reports::write_pretty(provenance_to_json(without), text);
  EXPECT_EQ(text.str(), golden_or_update("provenance.json", text.str()));
}

system_clock::time_point wall_us(long long us) {
  return system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(std::chrono::microseconds(us)));
}

// A watch of a server observe started, and one of a PID (no port, host or target).
std::vector<std::pair<const char*, ServerWatch>> two_watches() {
  return {{"observe",
           {.loiter_version = "0.1.0",
            .pid = 4242,
            .port = 8080,
            .host = "127.0.0.1",
            .target = "reference",
            .started = wall_us(1'764'669'600'123'456),
            .period = 100ms}},
          {"pid",
           {.loiter_version = "0.1.0",
            .pid = 77,
            .started = wall_us(1'764'669'600'000'000),
            .period = 250ms}}};
}

// The watch's three samples, 100 ms and 1 us apart.
std::vector<WallSample> wall_samples(const ServerWatch& watch) {
  std::vector<WallSample> wall;
  const auto samples = three_samples();
  for (std::size_t i = 0; i < samples.size(); ++i) {
    wall.push_back({watch.started + std::chrono::microseconds(100'001 * (i + 1)), samples[i]});
  }
  return wall;
}

// Writes `watch` with `samples` into the scratch directory; observe.json as started, then
// samples.jsonl, then observe.json as finished.
std::array<std::string, 3> watch_texts(const RawScratch& scratch, const ServerWatch& watch,
                                       const std::vector<WallSample>& samples,
                                       system_clock::time_point ended, WatchEnding ending) {
  fs::remove_all(scratch.dir);
  ServerWatchWriter writer(scratch.dir, watch);
  const auto started = read_file(scratch.dir / kWatchHeaderFile);
  for (const auto& sample : samples) writer.append(sample);
  writer.finish(ended, ending);
  return {started, read_file(scratch.dir / kWatchSamplesFile),
          read_file(scratch.dir / kWatchHeaderFile)};
}

TEST(RawBytes, AWatchIsWrittenAsEver) {
  RawScratch scratch;
  for (const auto& [name, watch] : two_watches()) {
    const auto texts = watch_texts(scratch, watch, wall_samples(watch),
                                   watch.started + 2'000'000'001ns, WatchEnding::server_exited);
    const auto base = std::string(name);
    EXPECT_EQ(texts[0], golden_or_update(base + "-started.json", texts[0])) << name;
    EXPECT_EQ(texts[1], golden_or_update(base + "-samples.jsonl", texts[1])) << name;
    EXPECT_EQ(texts[2], golden_or_update(base + ".json", texts[2])) << name;
  }
}

TEST(RawBytes, AWatchReadBackIsWrittenTheSame) {
  RawScratch scratch;
  for (const auto& [name, watch] : two_watches()) {
    const auto base = std::string(name);
    fs::remove_all(scratch.dir);
    fs::create_directories(scratch.dir);
    std::ofstream(scratch.dir / kWatchHeaderFile) << read_golden(base + ".json");
    std::ofstream(scratch.dir / kWatchSamplesFile) << read_golden(base + "-samples.jsonl");
    const auto back = read_server_watch(scratch.dir);
    const auto texts = watch_texts(scratch, back, back.samples, back.ended, back.ended_by);
    EXPECT_EQ(texts[0], read_golden(base + "-started.json")) << name;
    EXPECT_EQ(texts[1], read_golden(base + "-samples.jsonl")) << name;
    EXPECT_EQ(texts[2], read_golden(base + ".json")) << name;
  }
}

}  // namespace
}  // namespace loiter::suites
