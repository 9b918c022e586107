// What `loiter observe` saw of a server on its own machine, as plain data with wall-clock
// times (shards on other machines share only the wall clock), and its directory:
// DIR/observe.json (who was watched, from when to when, why it ended; written at the start
// with "ended": null and rewritten at the end) and DIR/samples.jsonl (one sample a line,
// each written whole by one write(), so a killed observer leaves whole lines).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loiter/fixtures/os/fd.hpp"
#include "loiter/fixtures/probe/sample.hpp"
#include "loiter/suites/runner/watch_ending.hpp"

namespace loiter::suites {

inline constexpr const char* kWatchHeaderFile = "observe.json";
inline constexpr const char* kWatchSamplesFile = "samples.jsonl";

struct WallSample {
  std::chrono::system_clock::time_point at;
  fixtures::ProcessSample sample;
};

struct ServerWatch {
  std::string loiter_version;
  long pid = 0;
  std::optional<unsigned short> port;  // the port whose TCP states were counted
  std::string host;                    // where observe started the server; empty with --pid
  std::optional<std::string> target;   // the target's name when observe started it
  std::chrono::system_clock::time_point started, ended;
  // none when observe.json has no end (the observer was killed): `ended` is then the last
  // sample's time (or `started`).
  WatchEnding ended_by = WatchEnding::none;
  std::chrono::milliseconds period{};
  std::vector<WallSample> samples;
  bool torn_tail = false;  // samples.jsonl ended in a part line, which was left out
};

// Why `dir` cannot hold a new watch (a file, or a directory that is not empty, or a path
// that cannot be inspected); nullopt when it can.
std::optional<std::string> watch_directory_problem(const std::filesystem::path& dir);

// Writes a watch as it happens; keeps no samples (a week at 100 ms is 6 million).
class ServerWatchWriter {
 public:
  // Creates `dir` (std::invalid_argument when watch_directory_problem names one), writes
  // observe.json from `header` (its samples and end ignored) and opens samples.jsonl.
  // Throws std::runtime_error naming the file when one cannot be written.
  ServerWatchWriter(std::filesystem::path dir, ServerWatch header);
  // One line, by one write(). Throws std::runtime_error naming the file.
  void append(const WallSample& sample);
  // observe.json again, with its end (replaced by rename, never left half written).
  void finish(std::chrono::system_clock::time_point ended, WatchEnding ended_by);
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  ServerWatch header_;
  fixtures::Fd samples_;
};

// The watch in `dir`. A last line without its newline (the observer killed mid-write) is
// left out and torn_tail set. Throws std::runtime_error naming the file (and the line of
// samples.jsonl) and what is wrong.
ServerWatch read_server_watch(const std::filesystem::path& dir);

// "2026-12-02T10:00:00.123Z" (UTC, milliseconds).
std::string rfc3339_ms(std::chrono::system_clock::time_point at);

}  // namespace loiter::suites
