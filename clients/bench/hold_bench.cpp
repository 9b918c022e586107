// loiter-hold-bench: holds N idle (silent) connections against a server and prints what
// holding them costs the client: connection-open rate, client memory per held connection
// (VmRSS delta, with every record kept), and client CPU while holding (getrusage over the
// hold). It stops by itself: every connection is bounded by its patience.
//
//   loiter-hold-bench --connect 127.0.0.1:PORT --count 30000 [--processes K] [--hold 5]
//
// Loopback targets only. When N does not fit in one process's RLIMIT_NOFILE, the bench
// runs itself K times (fork/exec), each with a share and disjoint source addresses, on one
// shared timeline, and sums the figures.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "loiter/clients/silent.hpp"
#include "loiter/clients/targets.hpp"

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
};

// One process's figures; a line of "key=value" between processes.
struct Figures {
  std::size_t count = 0, connected = 0, failed = 0, held = 0;
  long long first_start_ns = 0, last_connected_ns = 0;
  long rss_base_kib = 0, rss_held_kib = 0;
  double cpu_hold_s = 0, hold_s = 0;
};

long vm_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

double cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

long long ns(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

bool settled(const ConnectionRecord& r) {
  return r.connect_took > Duration::zero() || r.ending == Ending::connect_failed;
}

// Waits until every connection has connected (or failed), then measures memory, then CPU
// over the hold. Polls the records in place every 20 ms: bounded by `budget`.
awaitable<void> measure(const std::vector<ConnectionRecord>& records, Clock::time_point budget,
                        Duration hold, Figures& figures) {
  Timer timer(co_await asio::this_coro::executor);
  while (Clock::now() < budget &&
         !std::ranges::all_of(records, [](auto& r) { return settled(r); })) {
    timer.expires_after(20ms);
    co_await timer.async_wait(as_values);
  }
  figures.rss_held_kib = vm_rss_kib();
  const double cpu_before = cpu_seconds();
  const auto hold_start = Clock::now();
  timer.expires_after(hold);
  co_await timer.async_wait(as_values);
  figures.cpu_hold_s = cpu_seconds() - cpu_before;
  figures.hold_s = std::chrono::duration<double>(Clock::now() - hold_start).count();
  figures.held = static_cast<std::size_t>(std::ranges::count_if(records, [](auto& r) {
    return r.ending == Ending::open && r.client_closed == Duration::zero() &&
           r.connect_took > Duration::zero();
  }));
}

Figures run_share(const tcp::endpoint& target, const BenchOptions& o) {
  require_fd_room(o.count);
  const auto start = o.start_ns ? Clock::time_point(Duration(o.start_ns)) : Clock::now() + 100ms;
  const auto opening = std::chrono::duration_cast<Duration>(
                           std::chrono::duration<double>(static_cast<double>(o.count) / o.rate)) +
                       3s;
  const auto hold = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(o.hold_s));
  asio::io_context io(1);
  std::vector<ConnectionRecord> records;
  Figures figures{.count = o.count, .rss_base_kib = vm_rss_kib()};
  spawn_silent(io,
               {.target = target,
                .count = o.count,
                .patience = opening + hold + 2s,
                .connect_timeout = opening,
                .pacing = {.start = start, .per_second = o.rate},
                .source_offset = o.source_offset},
               records);
  asio::co_spawn(io, measure(records, start + opening, hold, figures), asio::detached);
  io.run();  // every connection ends at its patience
  figures.first_start_ns = ns(records.front().connect_start);
  for (const auto& r : records) {
    if (r.ending == Ending::connect_failed) {
      ++figures.failed;
      continue;
    }
    ++figures.connected;
    figures.first_start_ns = std::min(figures.first_start_ns, ns(r.connect_start));
    figures.last_connected_ns = std::max(figures.last_connected_ns, ns(r.connected()));
  }
  return figures;
}

std::string to_line(const Figures& f) {
  return fmt::format("figures {} {} {} {} {} {} {} {} {:.6f} {:.6f}\n", f.count, f.connected,
                     f.failed, f.held, f.first_start_ns, f.last_connected_ns, f.rss_base_kib,
                     f.rss_held_kib, f.cpu_hold_s, f.hold_s);
}

bool from_line(const std::string& line, Figures& f) {
  return std::sscanf(line.c_str(), "figures %zu %zu %zu %zu %lld %lld %ld %ld %lf %lf", &f.count,
                     &f.connected, &f.failed, &f.held, &f.first_start_ns, &f.last_connected_ns,
                     &f.rss_base_kib, &f.rss_held_kib, &f.cpu_hold_s, &f.hold_s) == 10;
}

// Starts one worker process for connections [offset, offset + count); returns its pid and
// the read end of its stdout.
std::pair<pid_t, int> start_worker(const BenchOptions& o, std::size_t offset, std::size_t count,
                                   double rate, long long start_ns) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("cannot create a pipe");
  const std::vector<std::string> args{"loiter-hold-bench",
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
                                      std::to_string(start_ns)};
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

Figures combine(const std::vector<Figures>& parts) {
  Figures sum{.first_start_ns = parts.front().first_start_ns};
  for (const auto& f : parts) {
    sum.count += f.count;
    sum.connected += f.connected;
    sum.failed += f.failed;
    sum.held += f.held;
    sum.first_start_ns = std::min(sum.first_start_ns, f.first_start_ns);
    sum.last_connected_ns = std::max(sum.last_connected_ns, f.last_connected_ns);
    sum.rss_base_kib += f.rss_base_kib;
    sum.rss_held_kib += f.rss_held_kib;
    sum.cpu_hold_s += f.cpu_hold_s;
    sum.hold_s = std::max(sum.hold_s, f.hold_s);
  }
  return sum;
}

std::vector<Figures> run_workers(const BenchOptions& o, std::size_t processes) {
  const auto start_ns = ns(Clock::now() + 300ms);  // one timeline for every worker
  std::vector<std::pair<pid_t, int>> workers;
  for (std::size_t i = 0, offset = 0; i < processes; ++i) {
    const std::size_t share = o.count / processes + (i < o.count % processes ? 1 : 0);
    // Each worker starts on its own source address block: 4-tuples never collide.
    workers.push_back(
        start_worker(o, offset, share, o.rate / static_cast<double>(processes), start_ns));
    offset += ((share + kConnectionsPerSource - 1) / kConnectionsPerSource) * kConnectionsPerSource;
  }
  std::vector<Figures> parts;
  for (const auto& [pid, fd] : workers) {
    const std::string text = read_all(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    Figures f;
    if (!from_line(text, f)) throw std::runtime_error("a worker reported no figures: " + text);
    parts.push_back(f);
  }
  return parts;
}

void print(const Figures& f, std::size_t processes) {
  const double open_s = static_cast<double>(f.last_connected_ns - f.first_start_ns) / 1e9;
  const auto connected = static_cast<double>(f.connected);
  const double per_conn =
      f.connected ? static_cast<double>(f.rss_held_kib - f.rss_base_kib) * 1024.0 / connected : 0.0;
  fmt::print("connections   {} asked, {} connected, {} failed, {} held through the hold\n", f.count,
             f.connected, f.failed, f.held);
  fmt::print("processes     {}\n", processes);
  fmt::print("open rate     {:.0f} conn/s ({} in {:.3f} s)\n",
             open_s > 0 ? connected / open_s : 0.0, f.connected, open_s);
  fmt::print("client RSS    {:.0f} B per held connection (VmRSS {} -> {} KiB, records kept)\n",
             per_conn, f.rss_base_kib, f.rss_held_kib);
  fmt::print("client CPU    {:.2f}% of one core while holding ({:.3f} s CPU over {:.1f} s)\n",
             f.hold_s > 0 ? 100.0 * f.cpu_hold_s / f.hold_s : 0.0, f.cpu_hold_s, f.hold_s);
}

int run(const BenchOptions& o) {
  const auto colon = o.connect.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("--connect wants HOST:PORT");
  const tcp::endpoint target(asio::ip::make_address(o.connect.substr(0, colon)),
                             static_cast<unsigned short>(std::stoul(o.connect.substr(colon + 1))));
  require_loopback(target);
  if (o.worker) {
    fmt::print("{}", to_line(run_share(target, o)));
    return 0;
  }
  const std::size_t room = raise_fd_limit() - 100;
  const std::size_t processes = o.processes ? o.processes : (o.count + room - 1) / room;
  const auto parts =
      processes <= 1 ? std::vector<Figures>{run_share(target, o)} : run_workers(o, processes);
  print(combine(parts), std::max<std::size_t>(processes, 1));
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
  app.add_flag("--worker", o.worker, "run one share and print its figures")->group("");
  CLI11_PARSE(app, argc, argv);
  try {
    return loiter::clients::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loiter-hold-bench: %s\n", e.what());
    return 1;
  }
}
