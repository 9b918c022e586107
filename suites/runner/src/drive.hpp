// Runs a scenario's clients (and its regular traffic, if any) to their end, into the
// observation's connections (and load). In this process when its connections fit one
// process's RLIMIT_NOFILE; otherwise, for a scenario without regular traffic, split over
// as many forked client processes as they need (connection i of every fleet in process
// i % K, on one shared timeline), whose records come back over pipes and are merged so the
// observation reads as one process's. Private to the runner.
//
// Client processes are forked, not exec'd, and so only while loiter runs one thread: a
// fork copies the calling thread alone, and a lock another thread held then (in malloc,
// stdio, fmt) would stay locked for good in a child that goes on to run Asio and fmt. Hence
// a Drive is made before the sampler's thread starts, and forks in its constructor (any
// other thread of loiter's stepping aside: QuietForForks). Forking, not exec'ing a `loiter`
// subcommand, because a client process needs the whole drive context (the scenario, the
// target as resolved, possibly a user's file with command-line overrides, the expectations,
// timing, parameters and the shared start): forked, it has them as they are; exec'd, each
// would need a serialized form and a parser, a second path for the same data.
#pragma once

#include "client_processes.hpp"
#include "explanations.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/drive_context.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/runner/shard_run.hpp"

namespace loiter::suites {

// Client processes one run may use at most (100,000 connections take 6 at 20,000 each).
inline constexpr std::size_t kMostClientProcesses = 32;

// Why `connections` cannot be driven: they would take more than kMostClientProcesses client
// processes of `per_process` each; names RLIMIT_NOFILE (`nofile`), which sets that share.
std::string client_process_limit_message(std::size_t connections, std::size_t per_process,
                                         std::size_t nofile);

// Harness faults (a limit, a client process that fails or dies) throw std::runtime_error
// naming them; the user's interrupt stops the clients early (their records so far kept in
// one process, none when split).
// The endpoint the clients connect to (the server's, from the probe's plain form).
clients::tcp::endpoint asio_endpoint(const fixtures::TcpEndpoint& endpoint);

class Drive {
 public:
  // Decides where the clients run and, when they are split, forks the client processes
  // now: they wait for the shared start, a few milliseconds a process ahead. Throws (a
  // fixtures::HarnessError among them) when they cannot all be started; any started are
  // killed and reaped as the Drive goes. `server` is loopback, or the one host the user
  // allowed.
  Drive(const Scenario& scenario, const clients::tcp::endpoint& server,
        const fixtures::Target& target, const Expectations& expected, const Timing& timing,
        const ScenarioParameters& parameters);
  // A shard of a run split over machines (shard_run.hpp): `share` of every fleet and of the
  // schedule against `server`, on the timeline that starts at `start` for every shard; its
  // share is split over client processes in turn when it needs more than one.
  Drive(const Scenario& scenario, const clients::tcp::endpoint& server,
        const fixtures::Target& target, const Expectations& expected, const Timing& timing,
        const ScenarioParameters& parameters, clients::FleetShare share,
        clients::Clock::time_point start);

  // Runs the clients (in this process) or hears the client processes out, to their end.
  void run(Observation& observation, OpenWatch& watch);
  // The shard's run: its own records, each with its fleet and index, and its load.
  ShardOutput run_shard();

 private:
  const Scenario& scenario_;
  clients::FleetShare share_;  // {0, 1} unless a shard
  std::size_t parts_;          // client processes of this share (1: this process)
  DriveContext context_;
  ClientProcesses processes_;  // none when the clients run in this process
  void fork_processes();
};

}  // namespace loiter::suites
