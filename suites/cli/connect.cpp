// `loiter check --connect HOST:PORT [--pid P]` without --shard: its option, its refusals and
// the run document's head; check.cpp runs the plan.
#include "connect.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <stdexcept>

#include "loiter/suites/judge/judge.hpp"
#include "refusals.hpp"
#include "shard.hpp"

namespace loiter::cli {

void add_connect_options(CLI::App& command, CheckOptions& options) {
  command.add_option("--pid", options.pid,
                     "with --connect: the server's PID; its FDs, RSS, threads and the TCP states "
                     "of its port are sampled and the server-side checks made (without it they "
                     "are listed as not made)");
}

suites::RunningServer running_server(const CheckOptions& options) {
  if (!options.target_given) {
    throw std::invalid_argument(
        "--connect needs --target NAME|FILE: the judge needs what the server promises (its "
        "deadlines); a target file without `command` declares them for a server loiter "
        "does not start");
  }
  if (!options.faults.empty()) {
    throw std::invalid_argument(
        "--fault plants a bug in a reference server loiter starts; "
        "--connect drives a server started elsewhere");
  }
  suites::RunningServer server{.endpoint = server_endpoint(options), .pid = std::nullopt};
  if (options.pid) {
    if (auto problem = pid_problem(*options.pid)) throw std::invalid_argument(*problem);
    server.pid = *options.pid;
  }
  return server;
}

std::optional<std::string> start_problem(const CheckOptions& options,
                                         const fixtures::Target& target) {
  if (options.pid) {
    return "--pid goes with --connect HOST:PORT (a server loiter did not start); loiter "
           "samples the servers it starts itself";
  }
  if (fixtures::connect_only(target)) {
    return target.source +
           " has no command: loiter cannot start this server; give --connect HOST:PORT";
  }
  return std::nullopt;
}

void describe_running(reports::RunReport& report, const suites::RunningServer& server) {
  report.connected = server.pid
                         ? fmt::format("{} (pid {})", server.endpoint.to_string(), *server.pid)
                         : server.endpoint.to_string();
  if (server.pid) return;
  report.not_made = reports::NotMade{.why = "no --pid: the server's process was not sampled",
                                     .checks = suites::server_side_checks()};
}

}  // namespace loiter::cli
