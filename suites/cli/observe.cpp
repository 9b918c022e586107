// `loiter observe`: its options, what it refuses before anything starts, and the lines it
// prints; the server's start for --target, its stop and the sampling loop are the runner's
// (watch_loop.hpp).
#include "observe.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "check.hpp"
#include "finish.hpp"
#include "loiter/reports/number_text.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/watch_loop.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

using std::chrono::milliseconds;
constexpr double kLongestWatch = 7 * 24 * 3600.0;  // a week, as a soak

const CLI::Validator kWatchSeconds(
    [](std::string& text) -> std::string {
      double value = 0;
      if (!CLI::detail::lexical_cast(text, value) || !(value > 0)) {
        return fmt::format("'{}' is not a positive number of seconds", text);
      }
      return value > kLongestWatch
                 ? fmt::format("{} s is beyond a week ({:.0f} s)", text, kLongestWatch)
                 : "";
    },
    "SECONDS in (0, 604800]");

// The server the command line names (a target, or nullopt for --pid), or
// std::invalid_argument saying why it cannot be watched.
std::optional<fixtures::Target> chosen_server(const ObserveOptions& options) {
  if (options.pid.has_value() == !options.target.empty()) {
    throw std::invalid_argument(
        "name the server: --pid P (one that runs) or --target NAME|FILE "
        "(observe starts it), one of them");
  }
  if (options.pid) {
    if (auto problem = pid_problem(*options.pid)) throw std::invalid_argument(*problem);
    return std::nullopt;
  }
  if (options.port) {
    throw std::invalid_argument(
        "--port goes with --pid; a target's server is watched on its own port");
  }
  auto target = chosen_target(options.target);
  if (fixtures::connect_only(target)) {
    throw std::invalid_argument(
        fmt::format("{} has no command: loiter cannot start this server; watch it with --pid P",
                    target.source));
  }
  return target;
}

// --out made now (empty), so that a path that cannot be one is refused before the server
// starts. Throws std::invalid_argument.
void make_out(const std::string& out) {
  if (out.empty()) throw std::invalid_argument("--out: name the watch directory");
  if (auto problem = suites::watch_directory_problem(out)) {
    throw std::invalid_argument("--out " + *problem);
  }
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error)
    throw std::invalid_argument(fmt::format("--out {}: cannot be made: {}", out, error.message()));
}

// What is watched, in the words of the line printed as it starts.
std::string watched(const suites::WatchSubject& subject) {
  if (subject.target) {
    return fmt::format("{} at {}:{} (pid {})", *subject.target, subject.host, *subject.port,
                       subject.pid);
  }
  return subject.port ? fmt::format("pid {} (port {})", subject.pid, *subject.port)
                      : fmt::format("pid {} (no port: no TCP states)", subject.pid);
}

// Watches the server `target` names (or --pid's) into --out; prints the start and the end.
// Returns the exit code.
int observe(const ObserveOptions& options, const std::optional<fixtures::Target>& target) {
  suites::SessionPlan plan{.start = target, .fd_types = options.fd_types};
  if (!target) {
    plan.running = {.port = options.port ? std::optional(static_cast<unsigned short>(*options.port))
                                         : std::nullopt,
                    .pid = static_cast<pid_t>(*options.pid)};
  }
  const auto period = milliseconds(options.period_ms);
  std::optional<suites::ServerWatchWriter> writer;
  const auto observed = suites::observe_server(
      std::move(plan), milliseconds(static_cast<long long>(options.duration * 1000)), period,
      [&](const suites::WatchSubject& subject) -> suites::WatchSink {
        writer.emplace(options.out, suites::ServerWatch{.loiter_version = LOITER_VERSION,
                                                        .pid = subject.pid,
                                                        .port = subject.port,
                                                        .host = subject.host,
                                                        .target = subject.target,
                                                        .started = std::chrono::system_clock::now(),
                                                        .period = period});
        fmt::print("observing {} for {} s: {}\n", watched(subject),
                   reports::plain_number(options.duration), options.out);
        std::fflush(stdout);
        return [&](auto at, const fixtures::ProcessSample& sample) {
          writer->append({at, sample});
        };
      });
  if (!observed.end) {
    std::cerr << "loiter: interrupted while " << target->name
              << " was starting; nothing observed\n";
    return kInterrupted;
  }
  const auto& end = *observed.end;
  writer->finish(std::chrono::system_clock::now(), end.ended_by);
  fmt::print("observed {} samples, ended by {}; FDs first {}, peak {}, last {}: {}\n", end.samples,
             suites::to_string(end.ended_by), end.first_fds, end.peak_fds, end.last_fds,
             options.out);
  if (observed.stopped) {
    fmt::print("server {} stopped: {}\n", target->name, observed.stopped->how);
    for (const auto& left : observed.stopped->leftovers) {
      fmt::print("  still running after the stop, killed: pid {} {}\n", left.pid, left.command);
    }
  }
  return end.ended_by == suites::WatchEnding::interrupt ? kInterrupted : kPassed;
}

}  // namespace

void add_observe_options(CLI::App& command, ObserveOptions& options) {
  auto* pid = command.add_option("--pid", options.pid,
                                 "an existing server's PID: its process tree is sampled");
  command.add_option("--port", options.port, "with --pid: count the TCP states of this port")
      ->check(CLI::Range(1, 65535));
  command
      .add_option("--target", options.target,
                  "start this target's server (a bundled name or a target file), watch it, "
                  "stop it at the end")
      ->excludes(pid);
  command.add_option("--out", options.out, "the watch directory (made; refused if not empty)")
      ->required();
  command.add_option("--duration", options.duration, "how long to watch, s (at most a week)")
      ->required()
      ->check(kWatchSeconds);
  command.add_option("--period-ms", options.period_ms, "between samples, ms (at least 10)")
      ->capture_default_str()
      ->check(CLI::Range(10, 3'600'000));
  command.add_flag("--fd-types", options.fd_types,
                   "also count the descriptors by type at each sample (socket, pipe, file, ...)");
  command.footer(
      "Writes OUT/observe.json (pid, port, start, end, why it ended) and OUT/samples.jsonl (a\n"
      "sample a line: wall-clock unix seconds, processes, FDs, RSS, threads, TCP states). Ends\n"
      "at the duration (exit 0), when the server exits (exit 0), or on Ctrl-C (exit 130).\n"
      "Examples:\n"
      "  loiter observe --pid 1234 --port 8080 --out watch --duration 600   # a running server\n"
      "  loiter observe --target nginx --out watch --duration 600 --fd-types\n"
      "  loiter observe --target ./mine.toml --out watch --duration 60 --period-ms 50");
}

int run_observe(const ObserveOptions& options) {
  // Every input refused here, before a server starts or a file is written (exit 2).
  const auto target = refusing([&] {
    auto chosen = chosen_server(options);
    make_out(options.out);
    return chosen;
  });
  suites::install_interrupt_handlers();
  return observe(options, target);
}

}  // namespace loiter::cli
