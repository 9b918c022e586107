// loiter-hold-bench: holds N idle (silent) connections against a server and prints what
// holding them costs the client: connection-open rate, client memory per held connection
// (VmRSS delta, with every record kept), and client CPU while holding (getrusage over the
// hold). It stops by itself: every connection is bounded by its patience.
// With --recheck the connections are held-recheck ones instead: each answers a first
// request, is held, is re-checked with a request at one fleet-wide time (after every
// process has opened its share), and is closed by the client at the release; the table
// then says how many answered each request, and why the others failed. With --tls each
// completes a TLS handshake (no certificate check, ALPN http/1.1) and is then held silent:
// the open rate is then TLS handshakes per second, the memory that of a held TLS session.
//
//   loiter-hold-bench --connect 127.0.0.1:PORT --count 30000 [--processes K] [--hold 5]
//                     [--rate R] [--recheck | --tls]
//
// Loopback targets only. When N does not fit in one process's RLIMIT_NOFILE, the bench
// runs itself K times (fork/exec), each with a share and disjoint source addresses, on one
// shared timeline, and sums the figures.
#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "hold_figures.hpp"
#include "loiter/clients/http1/held_recheck.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/clients/transport/tls.hpp"
#include "process_cpu.hpp"
#include "process_memory.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;

struct BenchOptions {
  std::string connect;
  std::size_t count = 1000;
  std::size_t processes = 0;  // 0: as many as RLIMIT_NOFILE needs
  double hold_s = 5.0;
  double rate = 100'000.0;  // connections per second asked, over all processes
  std::size_t source_offset = 0;
  long long start_ns = 0;  // worker: the shared timeline's start (steady clock)
  bool worker = false;
  bool recheck = false;
  bool tls = false;  // each connection completes a TLS handshake, then is held silent
  // Worker: the whole fleet's count and rate, from which every process derives the same
  // timeline (0: this process's own).
  std::size_t fleet_count = 0;
  double fleet_rate = 0;

  double total_count() const { return static_cast<double>(fleet_count ? fleet_count : count); }
  double total_rate() const { return fleet_rate > 0 ? fleet_rate : rate; }
};

using bench::cpu_seconds;
using bench::heap_in_use_b;
using bench::vm_rss_kib;

long long ns(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

Duration seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

// Opened (or failed), and for a re-checked connection its first response in (or ended).
bool settled(const ConnectionRecord& r, bool recheck) {
  if (r.ending == Ending::connect_failed) return true;
  if (r.connect_took == Duration::zero()) return false;
  if (r.tls && !r.tls->handshake_done && r.ending == Ending::open) return false;
  return !recheck || complete_responses(r) >= 1 || r.ending != Ending::open;
}

// One share's timeline, the same in every process (all are derived from the shared start):
// open, settle, hold (CPU measured), re-check (every connection at once), release.
struct Timeline {
  Clock::time_point start, opened, recheck_at, release_at;
};

Timeline timeline_for(const BenchOptions& o) {
  Timeline t;
  t.start = o.start_ns ? Clock::time_point(Duration(o.start_ns)) : Clock::now() + 100ms;
  // Every process has opened its share (count / rate at the asked pace) by then, with slack.
  t.opened = t.start + seconds(static_cast<double>(o.total_count()) / o.total_rate()) + 3s;
  t.recheck_at = t.opened + seconds(o.hold_s);
  t.release_at = t.recheck_at + 5s;
  return t;
}

// Waits until every connection has settled, measures memory, then CPU over the hold; in
// re-check mode, memory again just before the release. Polls the records in place every
// 20 ms: bounded by the timeline.
awaitable<void> measure(const std::vector<ConnectionRecord>& records, const Timeline& t,
                        const BenchOptions& o, bench::Figures& figures) {
  Timer timer(co_await asio::this_coro::executor);
  while (Clock::now() < t.opened &&
         !std::ranges::all_of(records, [&](auto& r) { return settled(r, o.recheck); })) {
    timer.expires_after(20ms);
    co_await timer.async_wait(as_values);
  }
  figures.heap_held_b = heap_in_use_b();
  figures.rss_held_kib = vm_rss_kib();
  const double cpu_before = cpu_seconds();
  const auto hold_start = Clock::now();
  timer.expires_at(o.recheck ? t.recheck_at - 50ms : hold_start + seconds(o.hold_s));
  co_await timer.async_wait(as_values);
  figures.cpu_hold_s = cpu_seconds() - cpu_before;
  figures.hold_s = std::chrono::duration<double>(Clock::now() - hold_start).count();
  if (!o.recheck) co_return;
  timer.expires_at(t.release_at - 100ms);
  co_await timer.async_wait(as_values);
  figures.rss_recheck_kib = vm_rss_kib();
}

void spawn_share(asio::io_context& io, const tcp::endpoint& target, const BenchOptions& o,
                 const Timeline& t, std::vector<ConnectionRecord>& records) {
  const auto opening = t.opened - t.start;
  const Pacing pacing{.start = t.start, .per_second = o.rate};
  const FleetSpec fleet{.target = target,
                        .count = o.count,
                        .patience = opening + seconds(o.hold_s) + 2s,
                        .connect_timeout = opening,
                        .pacing = pacing,
                        .source_offset = o.source_offset};
  if (o.recheck) {
    HeldRecheckOptions options{
        .fleet = fleet, .recheck_at = t.recheck_at, .release_at = t.release_at};
    options.fleet.patience = t.release_at - t.start + 5s;
    spawn_held_recheck(io, options, records);
    return;
  }
  if (o.tls) {  // connect, handshake, then nothing: a held TLS connection
    TlsStallOptions options{.fleet = fleet};
    options.fleet.tls = make_tls_client({});
    spawn_tls_handshake_silent(io, options, records);
    return;
  }
  spawn_silent(io, SilentOptions{.fleet = fleet}, records);
}

bench::Figures run_share(const tcp::endpoint& target, const BenchOptions& o) {
  require_fd_room(o.count);
  const Timeline t = timeline_for(o);
  asio::io_context io(1);
  std::vector<ConnectionRecord> records;
  bench::Figures figures{
      .count = o.count, .rss_base_kib = vm_rss_kib(), .heap_base_b = heap_in_use_b()};
  spawn_share(io, target, o, t, records);
  asio::co_spawn(io, measure(records, t, o, figures), asio::detached);
  io.run();  // every connection ends at its patience, or at its release
  bench::count_records(records, o.recheck, figures);
  return figures;
}

// Starts one worker process for connections [offset, offset + count); returns its pid and
// the read end of its stdout.
std::pair<pid_t, int> start_worker(const BenchOptions& o, std::size_t offset, std::size_t count,
                                   double rate, long long start_ns) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("cannot create a pipe");
  std::vector<std::string> args{"loiter-hold-bench",
                                "--worker",
                                "--connect",
                                o.connect,
                                "--count",
                                std::to_string(count),
                                "--hold",
                                std::to_string(o.hold_s),
                                "--rate",
                                std::to_string(rate),
                                "--source-offset",
                                std::to_string(offset),
                                "--start-ns",
                                std::to_string(start_ns),
                                "--fleet-count",
                                std::to_string(o.count),
                                "--fleet-rate",
                                std::to_string(o.rate)};
  if (o.recheck) args.push_back("--recheck");
  if (o.tls) args.push_back("--tls");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot fork a worker");
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  ::close(fd);
  return text;
}

std::vector<bench::Figures> run_workers(const BenchOptions& o, std::size_t processes) {
  const auto start_ns = ns(Clock::now() + 300ms);  // one timeline for every worker
  std::vector<std::pair<pid_t, int>> workers;
  for (std::size_t i = 0, offset = 0; i < processes; ++i) {
    const std::size_t share = o.count / processes + (i < o.count % processes ? 1 : 0);
    // Each worker starts on its own source address block: 4-tuples never collide.
    workers.push_back(
        start_worker(o, offset, share, o.rate / static_cast<double>(processes), start_ns));
    offset += ((share + kConnectionsPerSource - 1) / kConnectionsPerSource) * kConnectionsPerSource;
  }
  std::vector<bench::Figures> parts;
  for (const auto& [pid, fd] : workers) {
    const std::string text = read_all(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    bench::Figures f;
    if (!bench::from_text(text, f))
      throw std::runtime_error("a worker reported no figures: " + text);
    parts.push_back(f);
  }
  return parts;
}

int run(const BenchOptions& o) {
  const auto colon = o.connect.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("--connect wants HOST:PORT");
  const tcp::endpoint target(asio::ip::make_address(o.connect.substr(0, colon)),
                             static_cast<unsigned short>(std::stoul(o.connect.substr(colon + 1))));
  require_loopback(target);
  if (o.worker) {
    fmt::print("{}", bench::to_text(run_share(target, o)));
    return 0;
  }
  const std::size_t room = raise_fd_limit() - 100;
  const std::size_t processes = o.processes ? o.processes : (o.count + room - 1) / room;
  const auto parts = processes <= 1 ? std::vector<bench::Figures>{run_share(target, o)}
                                    : run_workers(o, processes);
  fmt::print("loiter-hold-bench: {} {} connections, {} process(es), {:.0f} conn/s asked\n", o.count,
             o.recheck ? "held-recheck" : (o.tls ? "tls-handshake-silent" : "silent"),
             std::max<std::size_t>(processes, 1), o.rate);
  bench::print_table(parts, o.recheck);
  return 0;
}

}  // namespace
}  // namespace loiter::clients

int main(int argc, char** argv) {
  loiter::clients::BenchOptions o;
  CLI::App app{"Holds N idle connections against a loopback server and prints their cost"};
  app.add_option("--connect", o.connect, "HOST:PORT of the server (loopback only)")->required();
  app.add_option("--count", o.count, "connections to hold");
  app.add_option("--processes", o.processes, "client processes (0: as RLIMIT_NOFILE needs)");
  app.add_option("--hold", o.hold_s, "seconds to hold once all are open");
  app.add_option("--rate", o.rate, "connections opened per second (asked)");
  app.add_option("--source-offset", o.source_offset, "first source index")->group("");
  app.add_option("--start-ns", o.start_ns, "shared start (steady clock)")->group("");
  app.add_flag("--recheck", o.recheck,
               "held-recheck connections: a first request, held, a re-check, client close");
  app.add_flag("--tls", o.tls,
               "tls-handshake-silent connections: TCP connect, TLS handshake, then nothing")
      ->excludes("--recheck");
  app.add_flag("--worker", o.worker, "run one share and print its figures")->group("");
  app.add_option("--fleet-count", o.fleet_count, "the whole fleet's count")->group("");
  app.add_option("--fleet-rate", o.fleet_rate, "the whole fleet's rate")->group("");
  CLI11_PARSE(app, argc, argv);
  try {
    return loiter::clients::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loiter-hold-bench: %s\n", e.what());
    return 1;
  }
}
