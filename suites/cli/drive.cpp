// `loiter drive`: one client kind against the user's server, a live line per second, then
// the summary and a run directory (also on Ctrl-C).
#include "drive.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "drive_kinds.hpp"
#include "drive_status.hpp"
#include "endpoint_text.hpp"
#include "finish.hpp"
#include "loiter/fixtures/os/loopback.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/document/run_head.hpp"
#include "loiter/suites/runner/drive_kind.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

// The most connections opened a second, and the longest pause, interval or patience, s (as
// a target file's deadlines).
constexpr double kMostRate = 1'000'000;
constexpr double kMostSeconds = 1'000'000;

reports::ScenarioReport driven_report(suites::ScenarioResult& result, bool sampled) {
  auto& fds = result.observation.fds;
  const auto& timeline = result.observation.timeline;
  if (!timeline.empty()) {
    fds.baseline = timeline.front().sample.fds;
    fds.after = timeline.back().sample.fds;
    for (const auto& s : timeline) fds.peak = std::max(fds.peak, s.sample.fds);
  }
  auto report = suites::to_report(result);
  report.status = reports::Status::info;
  report.note = suites::interrupted() ? "not judged; stopped by the user" : "not judged";
  if (const auto failed = connect_failures(result.observation.connections)) {
    // Not one connection made: the run says nothing about the server (exit 3).
    if (failed->all) report.status = reports::Status::error;
    report.note += "; " + failed->text;
  }
  if (!sampled) {  // no server figures without --pid
    std::erase_if(report.figures, [](const auto& g) { return g.name == "FDs" || g.name == "RSS"; });
    std::erase_if(report.plots,
                  [](const auto& p) { return p.id == "fds" || p.id == "rss" || p.id == "tcp"; });
  }
  return report;
}

// A duration option `name` for a kind that takes it only. Throws std::invalid_argument.
std::optional<clients::Duration> only_for(const DriveOptions& options,
                                          const std::optional<double>& seconds,
                                          std::string_view name,
                                          bool (*takes)(const std::string&)) {
  if (!seconds) return std::nullopt;
  if (!takes(options.kind)) {
    throw std::invalid_argument(fmt::format("{}: {} does not take it (kinds that do: {})", name,
                                            options.kind, kinds_that(takes)));
  }
  return std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(*seconds));
}

// --path, for a kind that requests one only. Throws std::invalid_argument.
std::string path_for(const DriveOptions& options) {
  if (options.path.empty()) return {};
  if (!takes_path(options.kind)) {
    throw std::invalid_argument(fmt::format("--path: {} requests no path (kinds that do: {})",
                                            options.kind, kinds_that(takes_path)));
  }
  if (options.path.front() != '/') {
    throw std::invalid_argument(fmt::format("--path '{}' must start with '/'", options.path));
  }
  return options.path;
}

// --tls with its --alpn and --sni. Throws std::invalid_argument (or std::runtime_error when
// OpenSSL cannot make the context).
clients::TlsClient tls_for(const DriveOptions& options) {
  const auto kind = suites::drive_kind_info(options.kind);
  if (kind && kind->quic) {
    if (options.tls || !options.alpn.empty() || !options.sni.empty()) {
      throw std::invalid_argument(fmt::format(
          "{} speaks QUIC, which brings its own TLS 1.3 (ALPN h3, SNI localhost): --tls, "
          "--alpn and --sni are for the kinds over TCP",
          options.kind));
    }
    return nullptr;
  }
  if (!options.tls) {
    if (!options.alpn.empty() || !options.sni.empty()) {
      throw std::invalid_argument("--alpn and --sni go with --tls");
    }
    if (kind && kind->handshakes) {
      throw std::invalid_argument(
          fmt::format("{} completes a TLS handshake: add --tls", options.kind));
    }
    return nullptr;
  }
  clients::TlsSettings tls{.server_name = options.sni};
  if (!options.alpn.empty()) tls.alpn = options.alpn;
  return clients::make_tls_client(tls);
}

}  // namespace

void add_drive_options(CLI::App& command, DriveOptions& options) {
  command.add_option("KIND", options.kind, "the client kind")
      ->required()
      ->check(CLI::IsMember(kind_names()));
  command
      .add_option("--connect", options.connect,
                  "the server, ADDRESS:PORT (loopback only); for the h3-* kinds its UDP port")
      ->required();
  command.add_option("--pid", options.pid, "the server's PID: sample its FDs, RSS, threads");
  command.add_option("--count", options.count, "connections")
      ->capture_default_str()
      ->check(CLI::Range(1, 19'000));
  command.add_option("--rate", options.rate, "connections opened per second")
      ->capture_default_str()
      ->check(positive_number(kMostRate));
  command
      .add_option("--patience", options.patience, "how long each client waits for the server, s")
      ->capture_default_str()
      ->check(positive_number(kMostSeconds));
  command
      .add_option("--interval", options.interval,
                  "paced kinds (header-trickle, header-lines, body-trickle, slow-reader): "
                  "between sends (or reads), s; default the kind's own")
      ->check(positive_number(kMostSeconds));
  command
      .add_option("--pause", options.pause,
                  "keepalive-partial: from the first response to the half head; reader-pause: "
                  "how long it reads nothing; tls-late-head: from connect to the handshake; "
                  "h3-idle, h3-initial-stall: from the last packet to the probe (none without "
                  "it), s; default the kind's own")
      ->check(positive_number(kMostSeconds));
  command.add_option("--path", options.path,
                     "the path a kind requests (default its own: /health, /large, ...); "
                     "{bytes} in it becomes a size the kernel's buffers cannot hold "
                     "(reader-pause --path '/large?bytes={bytes}')");
  command.add_flag("--tls", options.tls,
                   "speak TLS (1.2-1.3, no certificate check); every kind but silent "
                   "completes the handshake first");
  command.add_option("--alpn", options.alpn,
                     "with --tls: a protocol offered by ALPN, repeatable (default http/1.1)");
  command.add_option("--sni", options.sni, "with --tls: the server name sent (SNI)");
  command.add_option("--runs", options.runs_root, "where the run directory is made")
      ->capture_default_str();
  command.add_option("--json", options.json_path, "also write the run document here");
  command.footer(
      "Examples (the scenarios' clients, against a server you started on port 8080):\n"
      "  loiter drive header-lines --connect 127.0.0.1:8080 --interval 3 --patience 60\n"
      "  loiter drive keepalive-partial --connect 127.0.0.1:8080 --pause 1 --path /\n"
      "  loiter drive reader-pause --connect 127.0.0.1:8080 --pause 120 "
      "--path '/large?bytes={bytes}'\n"
      "  loiter drive silent --connect 127.0.0.1:8080 --pid 1234 --count 500\n"
      "  loiter drive idle-keepalive --connect 127.0.0.1:8443 --tls --alpn http/1.1 "
      "--sni localhost\n"
      "  loiter drive tls-hello-trickle --connect 127.0.0.1:8443 --interval 2 --patience 60\n"
      "  loiter drive tls-handshake-silent --connect 127.0.0.1:8443 --tls --count 200\n"
      "  loiter drive h3-idle --connect 127.0.0.1:8443 --pause 35 --patience 60   # QUIC, UDP");
}

int run_drive(const DriveOptions& options) {
  suites::KindDrive drive{.kind = options.kind,
                          .count = options.count,
                          .rate = options.rate,
                          .patience = std::chrono::duration_cast<clients::Duration>(
                              std::chrono::duration<double>(options.patience))};
  // Every input is refused here, before a client connects (exit 2); a --runs that cannot be
  // made too.
  std::optional<suites::RunDirectory> made;
  refusing([&] {
    drive.interval = only_for(options, options.interval, "--interval", is_paced);
    drive.pause = only_for(options, options.pause, "--pause", takes_pause);
    drive.path = path_for(options);
    drive.server = address_endpoint(options.connect);
    drive.tls = tls_for(options);
    if (!fixtures::is_loopback(drive.server.address().to_string())) {
      throw std::invalid_argument(fmt::format(
          "refusing {}: loiter only targets loopback (127.0.0.0/8, ::1)", options.connect));
    }
    if (options.pid) {
      if (auto problem = pid_problem(*options.pid)) throw std::invalid_argument(*problem);
      drive.pid = static_cast<pid_t>(*options.pid);
    }
    if (auto problem = output_path_problem("--json", options.json_path))
      throw std::invalid_argument(*problem);
    made.emplace(options.runs_root, "drive-" + options.kind);
  });
  auto& directory = *made;
  auto report = suites::run_head(LOITER_VERSION, options.connect, suites::utc_now());
  suites::install_interrupt_handlers();
  auto driven = suites::drive_kind(
      drive, [](const auto& records, double elapsed, std::optional<std::size_t> fds) {
        std::cerr << drive_status(records, elapsed, fds) << "\n";
      });
  std::cerr << drive_status(driven.records, driven.seconds, std::nullopt)
            << (suites::interrupted() ? "  (interrupted)\n" : "  (done)\n");
  suites::ScenarioResult result{.id = options.kind};
  result.observation.scenario = options.kind;
  result.observation.connections = std::move(driven.records);
  result.observation.timeline = std::move(driven.timeline);
  directory.add_scenario(result);
  report.scenarios.push_back(driven_report(result, options.pid.has_value()));
  return finish_run(report, directory, {.json = options.json_path, .junit = {}});
}

}  // namespace loiter::cli
