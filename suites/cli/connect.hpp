// `loiter check --connect HOST:PORT [--pid P]` without --shard: the catalogue against a
// server loiter did not start, one scenario after another, judged as any check, into one run
// directory. Its options (--pid), what it refuses before anything runs, and what the run
// document says of the server (connected to, not started; the checks not made without a
// PID). The run itself is run_plan's with RunPlan::running set (running_server.hpp says why
// in-process and not one shard 0/1 with `loiter observe`'s watch and the merge).
#pragma once

#include <CLI/App.hpp>

#include "check.hpp"
#include "loiter/reports/run_report.hpp"
#include "loiter/suites/runner/running_server.hpp"

namespace loiter::cli {

void add_connect_options(CLI::App& command, CheckOptions& options);

// The server --connect and --pid name, for a target that must have come with --target.
// Throws std::invalid_argument: no --target (the judge needs the server's promises), --fault
// (a bug planted in a server loiter starts), a PID of no process, an address off loopback
// that --allow-remote does not name.
suites::RunningServer running_server(const CheckOptions& options);

// Why a check without --connect cannot run `target` (a connect-only target file: loiter
// cannot start it), or --pid without --connect; nullopt when it can.
std::optional<std::string> start_problem(const CheckOptions& options,
                                         const fixtures::Target& target);

// The run document's head for a run against `server`: where it was, and without its PID the
// server-side checks not made.
void describe_running(reports::RunReport& report, const suites::RunningServer& server);

}  // namespace loiter::cli
