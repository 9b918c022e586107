// loiter: the command line. `loiter check` runs the scenario catalogue against a target and
// prints a verdict per scenario; exit 0 all passed (or skipped), 1 a scenario failed,
// 2 usage error, 3 infrastructure error (the server did not start, a limit was hit).
// `loiter matrix` runs it against every installed bundled real server, one table.
// `loiter report` renders a stored run again, `loiter compare` gates a run against a
// baseline, `loiter drive` runs one client kind against a server the user started.
// `loiter survey` measures what a server does with stalled clients and drafts its target
// file. `loiter targets` lists the bundled targets, or shows what one target file declares.
// `loiter check --connect HOST:PORT [--pid P]` runs it against a server the user started.
// `loiter check --shard k/K` runs one share of a run split over machines, `loiter merge`
// judges the shards as one run, `loiter observe` watches a server on its own machine (the
// server's side of a sharded run).
// `loiter k8s-job` prints the Kubernetes Jobs of a sharded run (K shards, then the merge).

#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "check.hpp"
#include "drive.hpp"
#include "error_exit.hpp"
#include "exit_codes.hpp"
#include "k8s_job.hpp"
#include "ladder.hpp"
#include "matrix.hpp"
#include "merge.hpp"
#include "observe.hpp"
#include "report_command.hpp"
#include "survey.hpp"
#include "targets.hpp"

namespace {

// The command's own exit code, or its error's, said on stderr: the one place errors become
// exit codes (error_exit.hpp).
int exit_code_of(const std::function<int()>& command) {
  try {
    return command();
  } catch (...) {
    return loiter::cli::exit_code_of_error(std::current_exception());
  }
}

// One subcommand of `loiter`: its CLI11 command (parsed or not) and what runs it with the
// options parsed into it.
struct Subcommand {
  CLI::App* command;
  std::function<int()> run;
};

// Adds subcommand `name` to `app`, its options declared by `add_options` into an Options of its
// own; `run` runs it with them once parsed.
template <typename Options>
Subcommand add_subcommand(CLI::App& app, std::string name, std::string description,
                          void (*add_options)(CLI::App&, Options&), int (*run)(const Options&)) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(std::move(name), std::move(description));
  add_options(*command, *options);
  return {command, [options, run] { return run(*options); }};
}

// The command line parsed and its command run; returns the exit code.
int parse_and_run(int argc, char** argv) {
  CLI::App app{"loiter — adversarial connection-lifecycle tests for HTTP servers", "loiter"};
  app.require_subcommand(1);
  // The version every document's header carries; `loiter --version` prints it and exits 0.
  app.set_version_flag("--version", "loiter " LOITER_VERSION, "print loiter's version and exit");
  app.footer(
      "Examples:\n"
      "  loiter check                                 # catalogue vs the reference server\n"
      "  loiter check --scenario silent --count 500\n"
      "  loiter check --fault no-header-deadline      # see a planted bug caught (exit 1)\n"
      "  loiter check --target nginx                  # Debian's nginx, bundled target file\n"
      "  loiter check --target ./mine.toml            # your server, your target file\n"
      "  loiter check --junit loiter-junit.xml        # also JUnit XML for CI test reports\n"
      "  loiter check --target nginx --scenario soak  # 30 min at 15,000/s with churn: leaks?\n"
      "  loiter check --scenario soak --load-duration 20 --load-rate 5000   # a short soak\n"
      "  loiter check --list\n"
      "  loiter --version\n"
      "  loiter survey --target nginx --write mine.toml   # measure the deadlines, draft a file\n"
      "  loiter ladder --target nginx                 # the rate ladder's knee, saturation\n"
      "  loiter ladder --baseline ./old.toml --candidate ./new.toml   # exit 1: costs more\n"
      "  loiter targets                               # the bundled targets (cleartext, TLS)\n"
      "  loiter targets ./mine.toml                   # what your target file declares\n"
      "  loiter matrix                                # every installed real server, one table\n"
      "  loiter report loiter-runs/20261201T020000Z-reference   # console + report.html again\n"
      "  loiter report --matrix loiter-runs/20261201T030000Z-matrix  # the matrix of stored runs\n"
      "  loiter compare BASELINE_RUN CURRENT_RUN      # exit 1 on a regression\n"
      "  loiter drive silent --connect 127.0.0.1:8080 --pid 1234   # debug your own server\n"
      "  loiter check --connect 127.0.0.1:8080 --pid 1234 --target ./theirs.toml   # running\n"
      "  loiter check --scenario silent --count 4000 --connect 127.0.0.1:8080 \\\n"
      "    --shard 0/4 --start-at 2026-12-02T10:00:00Z  # share 0 of 4 of a run split over "
      "machines\n"
      "  loiter merge loiter-runs/20261202T100000Z-reference-shard-*-of-4 --observe watch\n"
      "  loiter observe --pid 1234 --port 8080 --out watch --duration 600   # server side\n"
      "  loiter k8s-job --image IMG --shards 8 --claim PVC --connect 10.0.3.7:8080 \\\n"
      "    --scenario idle-under-load > loiter.yaml   # K shards on Kubernetes, then the merge\n"
      "\nExit codes: 0 passed, 1 a scenario failed (compare: a regression), 2 a bad input,\n"
      "refused before any server starts, 3 infrastructure error, 130 interrupted (Ctrl-C:\n"
      "the run stops cleanly and still reports; twice: at once).");
  using namespace loiter::cli;
  // In the order `loiter --help` lists them.
  const std::vector<Subcommand> subcommands{
      add_subcommand(app, "check", "run scenarios against a target", add_check_options, run_check),
      add_subcommand(app, "matrix",
                     "run the catalogue against every installed bundled server; one table",
                     add_matrix_options, run_matrix),
      add_subcommand(app, "report",
                     "render a stored run (console summary, report.html), or with "
                     "--matrix the matrix of stored runs (Markdown, matrix.html)",
                     add_report_options, run_report),
      add_subcommand(app, "compare",
                     "compare a run against a baseline run, or a survey against a baseline "
                     "survey; exit 1 on a regression",
                     add_compare_options, run_compare),
      add_subcommand(app, "drive", "run one client kind against a server you started (loopback)",
                     add_drive_options, run_drive),
      add_subcommand(app, "survey",
                     "measure what a server does with stalled clients; draft its target file",
                     add_survey_options, run_survey_command),
      add_subcommand(app, "ladder",
                     "what regular traffic costs a server: a rate ladder, closed-loop saturation, "
                     "and two builds compared pair by pair (exit 1: the candidate is worse)",
                     add_ladder_options, run_ladder_command),
      add_subcommand(app, "targets",
                     "list the bundled targets, or show what a target (file) declares",
                     add_targets_options, run_targets),
      add_subcommand(app, "merge",
                     "judge the shards of a run split over machines (check --shard) as one run",
                     add_merge_options, run_merge),
      add_subcommand(app, "observe",
                     "sample a server's FDs, RSS, threads and TCP states with wall-clock times",
                     add_observe_options, run_observe),
      add_subcommand(app, "k8s-job",
                     "print the Kubernetes Jobs of a sharded run: K shards against a server "
                     "elsewhere, then the merge (YAML or JSON; nothing is applied)",
                     add_k8s_job_options, run_k8s_job),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  for (const Subcommand& subcommand : subcommands) {
    if (subcommand.command->parsed()) return subcommand.run();
  }
  return kUsage;
}

}  // namespace

namespace loiter::cli {

int run_command_line(int argc, char** argv) {
  return exit_code_of([&] { return parse_and_run(argc, argv); });
}

}  // namespace loiter::cli
