#include "drive.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <thread>

#include "loiter/clients/cost_span.hpp"
#include "loiter/clients/transport/share.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/suites/catalogue/target_clients.hpp"
#include "loiter/suites/runner/client_lines.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/quiet_threads.hpp"

namespace loiter::suites {

namespace {

using namespace std::chrono_literals;
using clients::Clock;

constexpr auto kForkLead = 5ms;             // per client process, before the shared timeline starts
constexpr auto kStopGrace = 1s;             // SIGTERM to SIGKILL, when the user interrupts
constexpr auto kReapWithin = 5s;            // a client process that closed its pipe exits by then
constexpr double kSlowestOpening = 1000.0;  // connections per second any scenario opens at least
constexpr std::size_t kFlushBytes = 1 << 16;

std::size_t connection_room(const ScenarioParameters& parameters) {
  const std::size_t room = clients::fd_room();
  const std::size_t asked = parameters.connections_per_process;
  return asked != 0 ? std::min(asked, room) : room;
}

void move_fleets(std::deque<std::vector<clients::ConnectionRecord>>& fleets,
                 Observation& observation) {
  for (auto& fleet : fleets) std::ranges::move(fleet, std::back_inserter(observation.connections));
}

// The clients in this process, to their end; `poll` is called between turns of the loop.
// Regular traffic runs on a thread of its own (DriveContext::load_io): the generator's sends
// wait for nothing the other clients do. The two share no state: the load fills out.load,
// the clients their fleets.
DriveOutput drive_here(const Scenario& scenario, const DriveContext& context,
                       const std::function<void()>& poll) {
  DriveOutput out;  // outlives the io_contexts: their handlers go before the records they fill
  const clients::CostSpan cost;  // this thread drives the waiting connections
  clients::asio::io_context load_io(1);
  clients::asio::io_context io(1);
  auto own = context;
  own.load_io = &load_io;
  scenario.drive(io, own, out);
  // While the regular traffic runs, `io` is kept from running out of work (it may outlast
  // the other clients): the load's thread lets it go once its schedule has ended.
  auto keep = std::make_optional(clients::asio::make_work_guard(io));
  std::thread load;
  if (out.load) {
    load = std::thread([&load_io, &io, &keep] {
      load_io.run();  // ends with its schedule
      clients::asio::post(io, [&keep] { keep.reset(); });
    });
  } else {
    keep.reset();
  }
  // Every client is bounded by its own patience; the loop also stops them early when the
  // user interrupts the run (their sockets close as the io_context is destroyed).
  while (!io.stopped()) {
    io.run_for(50ms);
    poll();
    if (interrupted() && !scenario.winds_down) {  // else it ends by itself, soon
      io.stop();
      load_io.stop();
    }
  }
  out.fleet_cost = cost.until_now();
  if (load.joinable()) load.join();  // out.load is whole
  return out;
}

void write_all(int fd, std::string& text) {
  for (std::size_t done = 0; done < text.size();) {  // bounded: each write moves on or fails
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw std::runtime_error(fmt::format("cannot write to the parent: {}", std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
  text.clear();
}

// In a client process: its share of every fleet, driven to the end, then its records.
int drive_share(const Scenario& scenario, const DriveContext& context, clients::FleetShare share,
                int fd) {
  std::string pending;
  try {
    auto own = context;
    own.share = share;
    clients::asio::io_context io(1);
    DriveOutput out;
    scenario.drive(io, own, out);
    io.run();  // every client is bounded by its own patience
    ShareEnd end;
    for (std::size_t f = 0; f < out.fleets.size(); ++f) {
      const auto& fleet = out.fleets[f];
      end.fleets.push_back(fleet.size());
      for (std::size_t i = share.part; i < fleet.size(); i += share.parts, ++end.records) {
        pending += record_line(f, i, fleet[i], context.start);
        if (pending.size() >= kFlushBytes) write_all(fd, pending);
      }
    }
    pending += end_line(end);
    write_all(fd, pending);
    return 0;
  } catch (const std::exception& e) {
    pending = error_line(e.what());
    try {
      write_all(fd, pending);
    } catch (...) {
    }
    return 1;
  }
}

// What the parent has heard from each client process.
struct Heard {
  std::vector<FleetRecord> records;
  std::vector<std::size_t> received;          // record lines, per process
  std::vector<std::optional<ShareEnd>> ends;  // its last line, once it came
  std::vector<std::string> errors;            // what a failed process said

  explicit Heard(std::size_t parts) : received(parts), ends(parts), errors(parts) {}

  void take(std::size_t process, ClientLine line) {
    if (auto* record = std::get_if<FleetRecord>(&line)) {
      records.push_back(std::move(*record));
      ++received[process];
    } else if (auto* end = std::get_if<ShareEnd>(&line)) {
      ends[process] = std::move(*end);
    } else {
      errors[process] = std::get<ShareError>(line).message;
    }
  }
};

// Throws naming the first client process that failed, died, or sent less than it said.
void require_whole_shares(const ClientProcesses& processes, const Heard& heard,
                          const std::vector<std::string>& endings) {
  const auto name = [&](std::size_t p) {
    return fmt::format("client process {}/{} (pid {})", p + 1, processes.size(), processes.pid(p));
  };
  for (std::size_t p = 0; p < processes.size(); ++p) {
    const auto said = heard.errors[p].empty() ? std::string() : ": " + heard.errors[p];
    if (!endings[p].empty())
      throw std::runtime_error(fmt::format("{} {}{}", name(p), endings[p], said));
    if (!heard.ends[p]) {
      throw std::runtime_error(
          fmt::format("{} ended without sending its last line{}", name(p), said));
    }
    if (heard.ends[p]->fleets != heard.ends[0]->fleets ||
        heard.received[p] != heard.ends[p]->records) {
      throw std::runtime_error(fmt::format("{} sent {} records of the {} it counted", name(p),
                                           heard.received[p], heard.ends[p]->records));
    }
  }
}

// A generous bound on the clients' run: every connection opened (at the slowest pace any
// scenario opens at), then its patience and connect timeout. They end by themselves before.
Clock::time_point give_up_at(const DriveContext& context) {
  const auto opening = std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(
      static_cast<double>(context.expected.connections) / kSlowestOpening));
  return context.start + opening + context.expected.patience + context.timing.connect +
         std::chrono::duration_cast<clients::Duration>(30s * context.timing.scale);
}

// Reads the client processes' records until each has ended; nullopt when the user
// interrupted them (stopped and reaped). Throws when one failed, died or sent too little.
std::optional<Heard> hear_out(ClientProcesses& processes, const DriveContext& context,
                              const std::function<void()>& poll) {
  const std::size_t parts = processes.size();
  Heard heard(parts);
  const auto pumped = processes.pump(
      [&](std::size_t p, std::string_view line) {
        heard.take(p, parse_client_line(line, context.start));
      },
      poll, [] { return interrupted(); }, give_up_at(context));
  if (pumped == ClientProcesses::Pumped::stopped) {
    processes.stop(kStopGrace);
    return std::nullopt;
  }
  if (pumped == ClientProcesses::Pumped::timed_out) {
    processes.stop(kStopGrace);
    throw std::runtime_error(fmt::format(
        "the {} client processes were still running past the clients' patience", parts));
  }
  require_whole_shares(processes, heard, processes.reap(kReapWithin));
  return heard;
}

// A shard's own records (those of `share`) out of whole fleets driven in this process.
ShardOutput own_records(DriveOutput& out, clients::FleetShare share) {
  ShardOutput shard;
  for (std::size_t f = 0; f < out.fleets.size(); ++f) {
    auto& fleet = out.fleets[f];
    shard.fleets.push_back(fleet.size());
    for (std::size_t i = share.part; i < fleet.size(); i += share.parts) {
      shard.records.push_back({.fleet = f, .index = i, .record = std::move(fleet[i])});
    }
  }
  shard.load = std::move(out.load);
  return shard;
}

}  // namespace

std::string client_process_limit_message(std::size_t connections, std::size_t per_process,
                                         std::size_t nofile) {
  const std::size_t parts = (connections + per_process - 1) / per_process;
  return fmt::format(
      "{} connections would take {} client processes of {} connections each (RLIMIT_NOFILE "
      "{} per process, {} descriptors kept for the harness); at most {} client processes are "
      "started: ask for fewer connections or raise RLIMIT_NOFILE (ulimit -Hn)",
      connections, parts, per_process, nofile, clients::kFdReserve, kMostClientProcesses);
}

namespace {

// One process when the connections fit its RLIMIT_NOFILE (always for regular traffic);
// otherwise as many as they need, at most kMostClientProcesses.
std::size_t parts_for(const Expectations& expected, const ScenarioParameters& parameters,
                      clients::FleetShare share) {
  const std::size_t needed = share.of(expected.connections) + share.of(parameters.load_connections);
  const std::size_t room = std::max<std::size_t>(connection_room(parameters), 1);
  const std::size_t parts = expected.load ? 1 : (needed + room - 1) / room;
  if (parts > kMostClientProcesses) {
    throw std::runtime_error(client_process_limit_message(needed, room, clients::raise_fd_limit()));
  }
  if (parts <= 1) clients::require_fd_room(needed);  // regular traffic beyond one process
  return parts;
}

// Shard k of K > 1 connects from sources of its own (127.<k+1>.0.2 on), as it would from a
// machine of its own.
unsigned source_block_for(const clients::tcp::endpoint& server, clients::FleetShare share) {
  if (!server.address().is_v4() || share.parts <= 1) return 0;
  return static_cast<unsigned>(share.part % clients::kMaxSourceBlock + 1);
}

// A shard's server off loopback is the one the user allowed (loiter check --allow-remote).
std::optional<clients::asio::ip::address> allowed_remote_for(const clients::tcp::endpoint& server) {
  if (server.address().is_loopback()) return std::nullopt;
  return server.address();
}

}  // namespace

clients::tcp::endpoint asio_endpoint(const fixtures::TcpEndpoint& endpoint) {
  return {clients::asio::ip::make_address(endpoint.address().to_string()), endpoint.port()};
}

Drive::Drive(const Scenario& scenario, const clients::tcp::endpoint& server,
             const fixtures::Target& target, const Expectations& expected, const Timing& timing,
             const ScenarioParameters& parameters)
    : scenario_(scenario),
      parts_(parts_for(expected, parameters, share_)),
      context_{.server = server,
               .start = Clock::now() + (parts_ > 1 ? kForkLead * parts_ : clients::Duration{}),
               .target = target,
               .expected = expected,
               .timing = timing,
               .parameters = parameters,
               .tls = tls_client(target),
               .allowed_remote = allowed_remote_for(server),
               .stop_early = [] { return interrupted(); }} {
  fork_processes();
}

Drive::Drive(const Scenario& scenario, const clients::tcp::endpoint& server,
             const fixtures::Target& target, const Expectations& expected, const Timing& timing,
             const ScenarioParameters& parameters, clients::FleetShare share,
             Clock::time_point start)
    : scenario_(scenario),
      share_(share),
      parts_(parts_for(expected, parameters, share_)),
      context_{.server = server,
               .start = start,
               .target = target,
               .expected = expected,
               .timing = timing,
               .parameters = parameters,
               .tls = tls_client(target),
               .share = share,
               .source_block = source_block_for(server, share),
               .allowed_remote = allowed_remote_for(server),
               .stop_early = [] { return interrupted(); }} {
  fork_processes();
}

void Drive::fork_processes() {
  if (parts_ <= 1) return;
  // Forked here, before the sampler's thread starts, with any other thread of loiter's
  // stopped (see QuietForForks): each waits for the shared start on its own timeline. A
  // shard's process p of P owns the connections of shard k of K that are also p of P among
  // them: i mod K*P = k + K*p.
  with_threads_stopped([&] {
    for (std::size_t part = 0; part < parts_; ++part) {
      const clients::FleetShare share{.part = share_.part + share_.parts * part,
                                      .parts = share_.parts * parts_};
      processes_.start(
          [this, share](int fd) { return drive_share(scenario_, context_, share, fd); });
    }
  });
}

void Drive::run(Observation& observation, OpenWatch& watch) {
  const auto poll = [&] { watch.poll(); };  // the kernel's view, just before clients give up
  if (parts_ > 1) {
    auto heard = hear_out(processes_, context_, poll);
    if (!heard) return;  // interrupted: nothing is judged
    auto fleets = merge_fleets(std::move(heard->records), heard->ends[0]->fleets.size());
    move_fleets(fleets, observation);
    observation.client_processes = parts_;
    return;
  }
  context_.start = Clock::now();  // in this process the timeline starts as the clients do
  auto out = drive_here(scenario_, context_, poll);
  move_fleets(out.fleets, observation);
  observation.fleet_cost = out.fleet_cost;
  if (out.load) {
    observation.load = LoadObservation{.result = std::move(*out.load),
                                       .pool = context_.parameters.load_connections};
  }
}

ShardOutput Drive::run_shard() {
  if (parts_ > 1) {
    auto heard = hear_out(processes_, context_, [] {});
    if (!heard) return {.interrupted = true};
    return {.records = std::move(heard->records),
            .fleets = heard->ends[0]->fleets,
            .client_processes = parts_};
  }
  auto out = drive_here(scenario_, context_, [] {});
  auto shard = own_records(out, share_);
  shard.interrupted = interrupted() && !scenario_.winds_down;
  shard.stopped_early = shard.load && shard.load->stopped_early;
  return shard;
}

ShardOutput drive_shard(const Scenario& scenario, const fixtures::Target& target,
                        const fixtures::TcpEndpoint& server, const Expectations& expected,
                        const Timing& timing, const ScenarioParameters& parameters,
                        clients::FleetShare share, clients::Clock::time_point start) {
  Drive drive(scenario, asio_endpoint(server), target, expected, timing, parameters, share, start);
  return drive.run_shard();
}

}  // namespace loiter::suites
