// `loiter survey`: its options, what it refuses before anything starts, and what it shows and
// stores; the server's start (or --connect's), the sampling and the survey are the runner's
// (survey_session.hpp).
#include "survey.hpp"

#include <fmt/format.h>

#include <iostream>
#include <sstream>

#include "endpoint_text.hpp"
#include "exit_codes.hpp"
#include "loiter/fixtures/os/loopback.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/rendered.hpp"
#include "loiter/reports/survey_json.hpp"
#include "loiter/reports/survey_render.hpp"
#include "loiter/suites/catalogue/timing.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/survey_session.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "loiter/suites/survey/survey_run.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"
#include "shard.hpp"
#include "survey_draft.hpp"

namespace loiter::cli {

namespace {

// The most connections a probe, and the longest wait, s.
constexpr std::size_t kMostConnections = 1000;
constexpr double kMostWait = 86'400;

// The options that only --connect takes, refused for a target loiter starts.
void refuse_connect_only(const SurveyOptions& options) {
  for (const auto& [given, name] :
       {std::pair{options.pid.has_value(), "--pid"}, std::pair{options.tls, "--tls"},
        std::pair{options.h2, "--h2"}, std::pair{options.h3, "--h3"},
        std::pair{!options.sni.empty(), "--sni"},
        std::pair{!options.health.empty(), "--health"}, std::pair{!options.echo.empty(), "--echo"},
        std::pair{!options.large.empty(), "--large"},
        std::pair{!options.allow_remote.empty(), "--allow-remote"}}) {
    if (given) {
      throw std::invalid_argument(fmt::format(
          "{} goes with --connect; a target's server is started by loiter and its file says "
          "that",
          name));
    }
  }
}

void check_path(std::string_view option, const std::string& path) {
  if (!path.empty() && path.front() != '/') {
    throw std::invalid_argument(fmt::format("{} '{}' must start with '/'", option, path));
  }
}

// The request for a server the user started.
suites::SurveyRequest connect_request(const SurveyOptions& options,
                                      std::optional<fixtures::Target>& file) {
  // Loopback, or the one host --allow-remote names, as check --connect takes it.
  const auto server = connect_endpoint(options.connect, options.allow_remote);
  suites::SurveyRequest request{
      .target = options.connect,
      .host = server.address().to_string(),
      .port = server.port(),
      .allow_remote = !fixtures::is_loopback(server.address().to_string())};
  if (options.pid) {
    if (auto problem = pid_problem(*options.pid)) throw std::invalid_argument(*problem);
  }
  if (!options.target.empty()) {  // a file that says what the server offers
    file = suites::choose_target({.name = options.target, .settings = options.settings});
    request.target = file->name;
  }
  request.h3 = options.h3 || (file && file->h3);
  request.tls = !request.h3 && (options.tls || (file && file->tls));
  request.h2 = !request.h3 && (options.h2 || (file && file->h2));
  if (file && file->tls) {
    request.alpn = file->tls->alpn;
    request.server_name = file->tls->server_name;
  } else if (request.tls && request.h2) {
    request.alpn = {"h2"};
  }
  if (request.h3) request.server_name = file && file->h3 ? file->h3->server_name : "localhost";
  if (!options.sni.empty()) request.server_name = options.sni;
  const auto path_of = [&](const std::string& given, const std::optional<std::string>& declared,
                           std::string fallback) {
    if (!given.empty()) return given;
    if (file) return declared.value_or(std::string());
    return fallback;
  };
  request.health = path_of(options.health, file ? file->paths.health : std::nullopt, "/health");
  request.echo = path_of(options.echo, file ? file->paths.echo : std::nullopt, "");
  request.large = path_of(options.large, file ? file->paths.large : std::nullopt, "");
  if (request.health.empty()) request.health = "/";
  return request;
}

// How to survey, as the options say; the server's own fields come from the request made for
// --connect or, for a target, from the server the session starts.
suites::SurveyRequest with_options(suites::SurveyRequest request, const SurveyOptions& options) {
  request.floods = options.floods;
  request.connections = options.connections;
  request.max_wait = seconds_given(options.max_wait);
  request.slack = suites::timing().slack;
  request.loiter_version = LOITER_VERSION;
  request.started = suites::utc_now();
  request.cancelled = [] { return suites::interrupted(); };
  request.told = [](std::string_view line) { std::cerr << line << "\n"; };
  return request;
}

}  // namespace

void add_survey_options(CLI::App& command, SurveyOptions& options) {
  command.add_option("--target", options.target,
                     "the server to start and survey: a bundled target or a target file (only "
                     "its command, readiness and paths are used); with --connect, a file that "
                     "says what the running server offers (paths, [tls], [h2]); default reference");
  command.add_option("--set", options.settings,
                     "table.key=value: a key of the target file set before it is read "
                     "(repeatable), e.g. deadlines.header=1");
  command.add_option("--fault", options.faults,
                     "reference server fault switch to plant (repeatable): see it named");
  command.add_option("--connect", options.connect,
                     "survey a server already running, HOST:PORT (loopback only)");
  command.add_option("--pid", options.pid, "with --connect: the server's PID, for its FDs and RSS");
  command.add_option("--allow-remote", options.allow_remote,
                     "with --connect: the one host off loopback loiter may survey");
  command.add_flag("--tls", options.tls, "with --connect: speak TLS (no certificate check)");
  command.add_flag("--h2", options.h2,
                   "with --connect: HTTP/2 (h2c with prior knowledge; with --tls, ALPN h2)");
  command.add_flag("--h3", options.h3,
                   "with --connect: HTTP/3 over QUIC to HOST:PORT on UDP (the SNI: localhost, or "
                   "--sni)");
  command.add_option("--sni", options.sni, "with --tls or --h3: the server name sent");
  command.add_flag("--floods", options.floods,
                   "HTTP/2: also the rapid-reset, CONTINUATION, SETTINGS and PING floods; "
                   "HTTP/3: the eight h3 floods (rapid reset, connection IDs, PATH_CHALLENGE, "
                   "QPACK bomb, blocked streams, encoder stream, out-of-order data, PING); one "
                   "connection each: when and how the server ends each");
  command.add_option("--health", options.health,
                     "with --connect: a path answering 200 to a GET (default /health)");
  command.add_option("--echo", options.echo,
                     "with --connect: a path that reads a POST body (the body probes)");
  command.add_option("--large", options.large,
                     "with --connect: a response larger than the kernel's buffers (the send "
                     "probes); {bytes} in it becomes the size needed");
  command.add_option("--connections", options.connections, "connections per probe")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, kMostConnections));
  command
      .add_option("--max-wait", options.max_wait,
                  "the cap on every wait, s: a deadline not met within it is reported as "
                  "\"none within\"")
      ->capture_default_str()
      ->check(positive_number(kMostWait));
  command
      .add_option("--runs", options.runs_root,
                  "where the run directory is made (survey.json, survey.html)")
      ->capture_default_str();
  command.add_option("--json", options.json_path, "also write survey.json here");
  command.add_option("--write", options.write_path,
                     "write a draft target file with every measured value (a comment on each)");
  command.footer(
      "What it measures, a few connections per probe, each timed from its own origin:\n"
      "the header deadline (silent, half a head) and how it ends, whether a byte or a whole\n"
      "line at a time extends it, the body deadline and a body trickle, the idle deadline and\n"
      "where it runs from, a second head's deadline, the send deadline of a stopped reader and\n"
      "of a slow one; over TLS the handshake; over HTTP/2 the preface, SETTINGS, a header\n"
      "block never ended, the idle GOAWAY (and with --floods, the floods), and a stream's body\n"
      "and send deadlines; over HTTP/3 (--h3, or a target with [h3]) the handshake and idle\n"
      "deadlines (each bracketed by probes, as QUIC forgets a connection without a word), the\n"
      "idle timeout advertised, the header, body and send deadlines of a stream, and what a\n"
      "closed control stream gets. It judges nothing: it says what the server does.\n"
      "\nExamples:\n"
      "  loiter survey                                   # the reference server\n"
      "  loiter survey --target nginx --write nginx-draft.toml\n"
      "  loiter survey --target reference --fault deadline-resets-on-progress --max-wait 20\n"
      "  loiter survey --connect 127.0.0.1:8080 --pid 1234 --echo /upload --large /big.iso\n"
      "  loiter survey --connect 127.0.0.1:8443 --tls --sni localhost\n"
      "  loiter survey --connect 127.0.0.1:8080 --h2      # h2c with prior knowledge\n"
      "  loiter survey --target nginx-h2c --floods\n"
      "  loiter survey --target reference-h3 --floods\n"
      "  loiter survey --target reference-h3 --write h3-draft.toml  # over HTTP/3\n"
      "  loiter survey --connect 127.0.0.1:4433 --h3 --echo /echo --large '/large?bytes={bytes}'\n"
      "  loiter compare loiter-runs/A-nginx-survey loiter-runs/B-nginx-survey  # what changed");
}

int run_survey_command(const SurveyOptions& options) {
  std::optional<suites::SurveyRequest> request;
  std::optional<fixtures::Target> target;
  std::optional<suites::RunDirectory> directory;
  refusing([&] {
    if (options.connect.empty()) {
      refuse_connect_only(options);
      target = suites::choose_target({.name = options.target.empty() ? "reference" : options.target,
                                      .settings = options.settings,
                                      .faults = options.faults});
      if (fixtures::connect_only(*target)) {
        throw std::invalid_argument(
            target->source +
            " has no command: loiter cannot start this server; give --connect HOST:PORT");
      }
    } else {
      if (!options.faults.empty()) {
        throw std::invalid_argument(
            "--fault plants a bug in a server loiter starts, not with "
            "--connect");
      }
      check_path("--health", options.health);
      check_path("--echo", options.echo);
      check_path("--large", options.large);
      request = connect_request(options, target);
    }
    if (options.h3 && (options.tls || options.h2)) {
      throw std::invalid_argument(
          "--h3 speaks QUIC (TLS 1.3 inside): it goes with neither --tls nor --h2");
    }
    const bool h3 = request ? request->h3 : target->h3.has_value();
    if (options.floods && !h3 && !(request ? request->h2 : target->h2.has_value())) {
      throw std::invalid_argument(
          "--floods are HTTP/2's and HTTP/3's: give --h2 or --h3 (with --connect) or a target "
          "with [h2] or [h3]");
    }
    for (const auto& [option, path] :
         {std::pair{"--json", options.json_path}, std::pair{"--write", options.write_path}}) {
      if (auto problem = output_path_problem(option, path)) throw std::invalid_argument(*problem);
    }
    directory.emplace(options.runs_root,
                      (target ? target->name : std::string("connect")) + "-survey");
  });
  suites::install_interrupt_handlers();
  suites::SurveyServer server{.log_dir = directory->server_dir("survey")};
  if (request) {
    if (options.pid) server.pid = static_cast<pid_t>(*options.pid);
  } else {
    server.start = *target;
  }
  const auto survey = suites::survey_server(
      with_options(request.value_or(suites::SurveyRequest{}), options), server);
  render_console(survey, std::cout);
  suites::write_file(directory->path() / "survey.json", reports::survey_text(survey));
  suites::write_file(directory->path() / "survey.html",
                     reports::rendered(survey, reports::Format::html));
  if (!options.json_path.empty())
    suites::write_file(options.json_path, reports::survey_text(survey));
  if (!options.write_path.empty()) {
    std::vector<std::pair<std::string, std::string>> paths;
    if (request) {
      for (const auto& [key, path] :
           {std::pair{"health", request->health}, std::pair{"echo", request->echo},
            std::pair{"large", request->large}}) {
        if (!path.empty()) paths.emplace_back(key, path);
      }
    }
    suites::write_file(options.write_path,
                       draft_target_text(survey, target, options.target, paths));
    std::cout << fmt::format("draft target file: {}\n", options.write_path);
  }
  std::cout << fmt::format("run directory: {}\n", directory->path().string());
  return survey.interrupted ? kInterrupted : kPassed;
}

}  // namespace loiter::cli
