// `loiter check`: the chosen scenarios against a target, one fresh server each; the
// summary on stdout and everything observed in a run directory.
#include "check.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <utility>

#include "connect.hpp"
#include "finish.hpp"
#include "loiter/reports/number_text.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/document/run_head.hpp"
#include "loiter/suites/document/run_plan.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "progress.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"
#include "shard.hpp"

namespace loiter::cli {

namespace {

fixtures::Duration seconds(double s) {
  return std::chrono::duration_cast<fixtures::Duration>(std::chrono::duration<double>(s));
}

// "header deadline, s: sugar for --set deadlines.header=S (the reference's: 2)".
std::string deadline_help(std::string_view name, std::string_view key,
                          const std::optional<fixtures::Duration>& d) {
  const auto fallback =
      d ? fmt::format(" (the reference's: {})",
                      reports::plain_number(std::chrono::duration<double>(*d).count()))
        : "";
  return fmt::format("{} deadline, s: sugar for --set {}=S{}", name, key, fallback);
}

// A deadline in seconds: positive, and within the limit a target file has too.
const CLI::Validator kDeadlineSeconds(
    [](std::string& text) -> std::string {
      constexpr double kMost = 1e6;
      double value = 0;
      if (!CLI::detail::lexical_cast(text, value) || !(value > 0)) {
        return fmt::format("'{}' is not a positive number of seconds", text);
      }
      return value > kMost ? fmt::format("{} s is beyond the limit of {:.0f} s", text, kMost) : "";
    },
    "SECONDS in (0, 1000000]");

int list_scenarios() {
  std::size_t width = 0;  // the longest id: the sentences start in one column
  for (const auto& scenario : suites::catalogue()) width = std::max(width, scenario.id.size());
  for (const auto& scenario : suites::catalogue()) {
    fmt::print("{:<{}} the server must {}\n", scenario.id, width, scenario.must);
  }
  return kPassed;
}

// The catalogue as a Markdown table: id, family, what the server must, and whether it runs
// by default. docs/scenarios.md holds it between marker lines (scripts/docs writes it, ctest
// Docs.ScenariosPageMatchesTheCatalogue compares).
int list_scenarios_markdown() {
  fmt::print("| id | family | the server must | runs |\n|---|---|---|---|\n");
  for (const auto& scenario : suites::catalogue()) {
    std::string must;
    for (const char c : scenario.must) {
      if (c == '|') must += '\\';  // a pipe would end the cell
      must += c;
    }
    fmt::print("| `{}` | {} | {} | {} |\n", scenario.id, scenario.family, must,
               suites::runs_by_default(scenario.id) ? "by default" : "on request");
  }
  return kPassed;
}

// Why the churn shares cannot be (together more than all the requests), or nullopt.
std::optional<std::string> churn_problem(const clients::Churn& churn) {
  if (churn.fresh + churn.server_close + churn.abort <= 1.0) return std::nullopt;
  using reports::plain_number;
  return fmt::format(
      "--churn-fresh {} + --churn-server-close {} + --churn-abort {} exceed 1: each is a share "
      "of the requests, together at most all of them (unset: the soak's {}, {}, {})",
      plain_number(churn.fresh), plain_number(churn.server_close), plain_number(churn.abort),
      plain_number(suites::kSoakChurn.fresh), plain_number(suites::kSoakChurn.server_close),
      plain_number(suites::kSoakChurn.abort));
}

// The soak's default churn with what the command line set.
clients::Churn churn_with(const CheckOptions& options) {
  auto churn = suites::kSoakChurn;
  churn.fresh = options.churn_fresh.value_or(churn.fresh);
  churn.server_close = options.churn_server_close.value_or(churn.server_close);
  churn.abort = options.churn_abort.value_or(churn.abort);
  churn.replace_every = options.churn_replace_every.value_or(churn.replace_every);
  return churn;
}

// The soak's churn: its default with what the command line set; nullopt when it set none.
std::optional<clients::Churn> churn_of(const CheckOptions& options) {
  if (!options.churn_fresh && !options.churn_server_close && !options.churn_abort &&
      !options.churn_replace_every) {
    return std::nullopt;
  }
  const auto churn = churn_with(options);
  if (auto problem = churn_problem(churn)) throw std::invalid_argument(*problem);
  return churn;
}

}  // namespace

std::vector<std::string> key_settings(const CheckOptions& options) {
  std::vector<std::string> settings;
  for (const auto& [key, value] : {std::pair{"deadlines.header", options.header_timeout},
                                   std::pair{"deadlines.body", options.body_timeout},
                                   std::pair{"deadlines.idle", options.idle_timeout},
                                   std::pair{"promises.send_timeout", options.send_timeout}}) {
    if (value) settings.push_back(fmt::format("{}={}", key, *value));
  }
  settings.insert(settings.end(), options.settings.begin(), options.settings.end());
  return settings;
}

fixtures::Target chosen_target(const CheckOptions& options) {
  return suites::choose_target(
      {.name = options.target, .settings = key_settings(options), .faults = options.faults});
}

fixtures::Target chosen_target(const std::string& name) {
  CheckOptions named;
  named.target = name;
  return chosen_target(named);
}

suites::ScenarioParameters parameters_of(const CheckOptions& options) {
  return {.count = options.count,
          .load_rate = options.load_rate,
          .load_duration = seconds(options.load_duration),
          .load_connections = options.load_connections,
          .churn = churn_of(options),
          .server_dir = {}};
}

void add_check_options(CLI::App& command, CheckOptions& options) {
  const auto reference = fixtures::reference_target();
  auto* target =
      command
          .add_option("--target", options.target,
                      "a bundled target (reference, reference-tls, nginx, ...) or a target file "
                      "(TOML); with --connect it must be given: what the running server promises")
          ->capture_default_str();
  command.add_option("--scenario", options.scenarios,
                     "scenario id to run (repeatable; default all but the flood family)");
  command.add_option("--family", options.families,
                     "run every scenario of this family (repeatable), e.g. flood: the HTTP/2 "
                     "floods or, on an [h3] target, the HTTP/3 ones, never in the default run");
  command.add_option(
      "--fault", options.faults,
      "reference server fault switch to plant (repeatable), e.g. no-header-deadline");
  command.add_option("--set", options.settings,
                     "table.key=value: a key of the target file set before it is read "
                     "(repeatable), e.g. deadlines.header=1, promises.send_timeout=3; the "
                     "command's {table.key} placeholders take it too");
  command
      .add_option("--header-timeout", options.header_timeout,
                  deadline_help("header", "deadlines.header", reference.deadlines.header))
      ->check(kDeadlineSeconds);
  command
      .add_option("--body-timeout", options.body_timeout,
                  deadline_help("body", "deadlines.body", reference.deadlines.body))
      ->check(kDeadlineSeconds);
  command
      .add_option("--idle-timeout", options.idle_timeout,
                  deadline_help("idle", "deadlines.idle", reference.deadlines.idle))
      ->check(kDeadlineSeconds);
  command
      .add_option("--send-timeout", options.send_timeout,
                  deadline_help("send", "promises.send_timeout", reference.promises.send_timeout))
      ->check(kDeadlineSeconds);
  command
      .add_option("--count", options.count,
                  "connections per scenario (default: the scenario's own: 100; 200 for "
                  "rst-abort; 1050 waiting for idle-under-load; 1000 for held-capacity). At "
                  "most 19000 (one client process's descriptors); held-capacity takes up to "
                  "100000: counts beyond one process are split over client processes. With "
                  "--shard k/K the limits are each shard's: on its count / K")
      ->check(CLI::Range(std::size_t{1}, kShardedCount));
  command
      .add_option("--load-rate", options.load_rate,
                  "idle-under-load, soak: regular requests per second (default 5000; soak 15000)")
      ->check(positive_number(kMostLoadRate));
  command
      .add_option("--load-duration", options.load_duration,
                  "idle-under-load, soak: seconds of regular traffic (default 25; soak 1800, "
                  "at most a week)")
      ->check(number_between(0.5, kMostLoadDuration));
  command
      .add_option("--load-connections", options.load_connections,
                  "idle-under-load, soak: keep-alive connections of the regular traffic "
                  "(default 32)")
      ->check(CLI::Range(1, 1000));
  const auto share = number_between(0, 1);
  command
      .add_option("--churn-fresh", options.churn_fresh,
                  "soak: share of requests sent on a fresh connection the client closes after "
                  "the answer (default 0.05)")
      ->check(share);
  command
      .add_option("--churn-server-close", options.churn_server_close,
                  "soak: share of requests sent with \"Connection: close\" (default 0.02)")
      ->check(share);
  command
      .add_option("--churn-abort", options.churn_abort,
                  "soak: share of requests whose client resets the connection mid-response "
                  "(default 0.005)")
      ->check(share);
  command
      .add_option("--churn-replace-every", options.churn_replace_every,
                  "soak: the client replaces each kept-alive connection after this many "
                  "requests (default 1000; 0: never)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1'000'000'000}));
  // Conflicting options, refused as the command line is parsed (exit 2), naming them.
  command.callback([&options, target] {
    if (auto problem = churn_problem(churn_with(options))) throw CLI::ValidationError(*problem);
    options.target_given = target->count() > 0;
  });
  command.add_option("--json", options.json_path, "also write the run document (report.json) here");
  command.add_option("--junit", options.junit_path,
                     "also write a JUnit XML report here: a testsuite for the target, a testcase "
                     "per scenario, the run directory as a property (for CI test reports)");
  command
      .add_option("--runs", options.runs_root,
                  "where run directories are made (<UTC time>-<target>/ with report.json, "
                  "report.html, raw records, timelines, provenance, server logs)")
      ->capture_default_str();
  command.add_flag("--list", options.list, "list the scenarios and exit");
  command.add_flag("--list-markdown", options.list_markdown,
                   "list the scenarios as a Markdown table (docs/scenarios.md) and exit");
  add_shard_options(command, options);
  add_connect_options(command, options);
  command.footer(
      "Examples:\n"
      "  loiter check --target ./mine.toml --junit loiter-junit.xml   # loiter starts your server\n"
      "  loiter check --connect 127.0.0.1:8080 --pid 1234 --target ./theirs.toml\n"
      "      # a server you started: --target is required (a file without `command` says what\n"
      "      # it promises); without --pid the server-side checks (FDs, RSS, CLOSE_WAIT) are\n"
      "      # listed as not made; off loopback only with --allow-remote HOST\n"
      "  loiter check --connect 127.0.0.1:8080 --target nginx --scenario silent\n"
      "      # a bundled target's promises for a server running elsewhere\n"
      "  loiter check --target reference-h3 --family flood\n"
      "      # the eight QUIC/HTTP/3 floods, each within the target's [h3.flood] bound");
}

int run_check(const CheckOptions& options) {
  if (options.list_markdown) return list_scenarios_markdown();
  if (options.list) return list_scenarios();
  if (!options.shard.empty() || !options.start_at.empty()) return run_shard(options);
  suites::RunPlan plan;
  // Every input is refused here, before a server starts (exit 2); a --runs that cannot be
  // made too.
  std::optional<suites::RunDirectory> directory;
  refusing([&] {
    plan.target = chosen_target(options);
    if (!options.connect.empty()) {
      plan.running = running_server(options);  // a server loiter did not start (connect.hpp)
    } else if (auto problem = start_problem(options, plan.target)) {
      throw std::invalid_argument(*problem);
    }
    plan.scenarios = suites::choose_scenarios(options.scenarios, options.count,
                                              /*without_load=*/false, options.families);
    // An h3 flood asked for on an [h3] target that promises nothing against it: a mistake in
    // the run, refused naming the key, not a skip.
    if (auto problem =
            suites::asked_flood_problem(options.scenarios, options.families, plan.target)) {
      throw std::invalid_argument(*problem);
    }
    plan.timing = suites::timing();
    plan.parameters = parameters_of(options);
    for (const auto& [option, path] :
         {std::pair{"--json", options.json_path}, std::pair{"--junit", options.junit_path}}) {
      if (auto problem = output_path_problem(option, path)) throw std::invalid_argument(*problem);
    }
    directory.emplace(options.runs_root, plan.target.name);
  });
  auto report = suites::run_head(LOITER_VERSION, plan.target, suites::utc_now());
  if (plan.running) describe_running(report, *plan.running);
  // The default run names the scenarios of another protocol once, instead of a skip each;
  // a scenario or family asked for by name is run (and skipped, with its reason).
  if (options.scenarios.empty() && options.families.empty()) {
    plan.scenarios = suites::leave_out_other_protocols(plan.scenarios, plan.target, report);
  }
  suites::install_interrupt_handlers();
  Progress progress(plan.scenarios.size());
  suites::run_plan(plan, *directory, report, progress.of(plan));
  return finish_run(report, *directory, {.json = options.json_path, .junit = options.junit_path});
}

}  // namespace loiter::cli
