// A server watch's directory: what the writer writes reads back the same (header, end,
// every sample field but per_process), a torn last line is left out and said so, a bad
// line is named by file and line, and a directory in use is refused.
#include "loiter/suites/document/server_watch.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "loiter/suites/document/raw_json.hpp"
#include "process_samples.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
using std::chrono::system_clock;
using namespace std::chrono_literals;
using testing::full_sample;
using ::testing::HasSubstr;

// A fresh directory path (not made) under $TMPDIR, removed with the object.
struct WatchScratch {
  fs::path root =
      fs::temp_directory_path() / fmt::format("loiter-watch-test-{}-{}", ::getpid(),
                                              ::testing::UnitTest::GetInstance()->random_seed());
  fs::path dir = root / "watch";
  WatchScratch() {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~WatchScratch() { fs::remove_all(root); }
};

// Whole microseconds: what a watch keeps of a time.
system_clock::time_point at_us(long long us) {
  return system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(std::chrono::microseconds(us)));
}

ServerWatch header() {
  return {.loiter_version = "0.test",
          .pid = 4242,
          .port = 8080,
          .host = "127.0.0.1",
          .target = "reference",
          .started = at_us(1'764'669'600'123'456),
          .period = 100ms};
}

void expect_same(const fixtures::ProcessSample& back, const fixtures::ProcessSample& s) {
  EXPECT_EQ(back.processes, s.processes);
  EXPECT_EQ(back.fds, s.fds);
  EXPECT_EQ(back.rss_kib, s.rss_kib);
  EXPECT_EQ(back.threads, s.threads);
  EXPECT_EQ(back.fd_types, s.fd_types);
  EXPECT_EQ(back.tcp_problem, s.tcp_problem);
  ASSERT_EQ(back.tcp.has_value(), s.tcp.has_value());
  if (!s.tcp) return;
  EXPECT_EQ(back.tcp->server.by_state, s.tcp->server.by_state);
  EXPECT_EQ(back.tcp->client.by_state, s.tcp->client.by_state);
  EXPECT_EQ(back.tcp->listeners, s.tcp->listeners);
  EXPECT_EQ(back.tcp->accept_queue, s.tcp->accept_queue);
  EXPECT_EQ(back.tcp->backlog, s.tcp->backlog);
}

// Every field written (header, end, each sample's fields and wall time to the microsecond)
// reads back the same.
TEST(ServerWatch, WhatIsWrittenReadsBackTheSame) {
  WatchScratch scratch;
  fixtures::ProcessSample problem{.processes = 1, .fds = 9, .rss_kib = 100, .threads = 1};
  problem.tcp_problem = "sock_diag: Operation not permitted";
  const std::vector<WallSample> written{{at_us(1'764'669'600'123'456), full_sample(12)},
                                        {at_us(1'764'669'600'223'999), problem},
                                        {at_us(1'764'669'600'323'000), {}}};
  {
    ServerWatchWriter writer(scratch.dir, header());
    for (const auto& s : written) writer.append(s);
    writer.finish(at_us(1'764'669'602'000'001), WatchEnding::duration);
  }
  const auto back = read_server_watch(scratch.dir);
  EXPECT_EQ(back.loiter_version, "0.test");
  EXPECT_EQ(back.pid, 4242);
  EXPECT_EQ(back.port, 8080);
  EXPECT_EQ(back.host, "127.0.0.1");
  EXPECT_EQ(back.target, "reference");
  EXPECT_EQ(back.started, header().started);
  EXPECT_EQ(back.ended, at_us(1'764'669'602'000'001));
  EXPECT_EQ(back.ended_by, WatchEnding::duration);
  EXPECT_EQ(back.period, 100ms);
  EXPECT_FALSE(back.torn_tail);
  ASSERT_EQ(back.samples.size(), written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(back.samples[i].at, written[i].at) << "sample " << i;
    expect_same(back.samples[i].sample, written[i].sample);
  }
}

// A line is the sample's fields exactly as a run's timeline writes them, after "unix".
TEST(ServerWatch, ASampleLineHoldsTheTimelinesFields) {
  WatchScratch scratch;
  ServerWatchWriter writer(scratch.dir, header());
  writer.append({at_us(1'764'669'600'500'000), full_sample(12)});
  std::ifstream in(scratch.dir / kWatchSamplesFile);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, R"({"unix":1764669600.500000,)" +
                      boost::json::serialize(sample_to_json(full_sample(12))).substr(1));
}

// Before finish (the observer killed), the watch reads back with no end: ended_by none
// and ended the last sample's time; a last line without its newline is left out and said.
TEST(ServerWatch, AKilledObserversTornLastLineIsLeftOutAndSaid) {
  WatchScratch scratch;
  {
    ServerWatchWriter writer(scratch.dir, header());
    writer.append({at_us(1'764'669'600'100'000), full_sample(12)});
    writer.append({at_us(1'764'669'600'200'000), full_sample(13)});
  }
  std::ofstream(scratch.dir / kWatchSamplesFile, std::ios::app) << R"({"unix":1764669600.3,"proc)";
  const auto back = read_server_watch(scratch.dir);
  EXPECT_TRUE(back.torn_tail);
  ASSERT_EQ(back.samples.size(), 2u);
  EXPECT_EQ(back.samples.back().sample.fds, 13u);
  EXPECT_EQ(back.ended_by, WatchEnding::none);
  EXPECT_EQ(back.ended, at_us(1'764'669'600'200'000));
}

// A whole line that is not a sample is an error naming the file and its line number.
TEST(ServerWatch, ABadLineIsNamedByFileAndLine) {
  WatchScratch scratch;
  {
    ServerWatchWriter writer(scratch.dir, header());
    writer.append({at_us(1'764'669'600'100'000), full_sample(12)});
  }
  std::ofstream(scratch.dir / kWatchSamplesFile, std::ios::app) << R"({"unix":1.5,"fds":"many"})"
                                                                << "\n";
  EXPECT_THAT([&] { read_server_watch(scratch.dir); },
              ::testing::ThrowsMessage<std::runtime_error>(
                  HasSubstr("samples.jsonl:2: sample: missing key 'processes'")));
  std::ofstream(scratch.dir / kWatchHeaderFile) << R"({"pid": 1})";
  EXPECT_THAT([&] { read_server_watch(scratch.dir); },
              ::testing::ThrowsMessage<std::runtime_error>(
                  HasSubstr("observe.json: missing key 'loiter_version'")));
}

// An end the reader does not know is an error naming it, not a watch that seems unfinished.
TEST(ServerWatch, AnEndOfAnotherNameIsRefused) {
  WatchScratch scratch;
  {
    ServerWatchWriter writer(scratch.dir, header());
    writer.finish(at_us(1'764'669'602'000'001), WatchEnding::interrupt);
  }
  std::stringstream written;
  written << std::ifstream(scratch.dir / kWatchHeaderFile).rdbuf();
  auto text = written.str();
  const auto at = text.find("\"interrupt\"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 11, "\"timeout\"");
  std::ofstream(scratch.dir / kWatchHeaderFile) << text;
  EXPECT_THAT(
      [&] { read_server_watch(scratch.dir); },
      ::testing::ThrowsMessage<std::runtime_error>(HasSubstr(
          "key 'ended_by' is 'timeout', not one of 'duration', 'interrupt', 'server-exited'")));
}

// A directory that holds anything, or a file, is refused; a missing or empty one is used.
TEST(ServerWatch, ADirectoryInUseIsRefused) {
  WatchScratch scratch;
  EXPECT_EQ(watch_directory_problem(scratch.dir), std::nullopt);
  fs::create_directories(scratch.dir);
  EXPECT_EQ(watch_directory_problem(scratch.dir), std::nullopt);
  std::ofstream(scratch.dir / "x") << "x";
  EXPECT_THAT(watch_directory_problem(scratch.dir).value_or(""), HasSubstr("not empty"));
  EXPECT_THROW(ServerWatchWriter(scratch.dir, header()), std::invalid_argument);
  EXPECT_THAT(watch_directory_problem(scratch.dir / "x").value_or(""),
              HasSubstr("not a directory"));
}

}  // namespace
}  // namespace loiter::suites
