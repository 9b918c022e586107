// loiter-h3-bench: opens N held HTTP/3 connections (h3-idle without a probe: QUIC handshake,
// SETTINGS, then silence until its patience) against a loopback server, and prints what they
// cost the client: handshakes completed, handshakes per second (from the first Initial sent
// to the last handshake done), client VmRSS before and with all held (and per held
// connection, against a budget of 32 KiB, and again after malloc_trim), the heap in use per
// held connection, and client CPU (getrusage: user + system) while opening and while holding.
//
//   loiter-h3-bench --connect 127.0.0.1:PORT --count 500 [--hold 5] [--rate 2000]
//
// One process, one thread; each connection is one UDP socket. The server must keep a
// connection idle for the whole hold (its idle timeout beyond --hold plus the opening).
// Loopback targets only. Stops by itself: every connection is bounded by its patience.
#include <fmt/format.h>
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "loiter/clients/h3/stalls.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "process_cpu.hpp"
#include "process_memory.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using bench::cpu_seconds;
using bench::heap_in_use_b;
using bench::vm_rss_kib;

struct BenchOptions {
  std::string connect;
  std::size_t count = 500;
  double hold_s = 5.0;
  double rate = 2000.0;  // handshakes started per second (asked)
};

Duration seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

double secs(Duration d) { return std::chrono::duration<double>(d).count(); }

// What a held QUIC connection may cost the client's VmRSS (docs/benchmarks.md).
constexpr double kBudgetB = 32 * 1024;

bool handshaken(const ConnectionRecord& r) { return r.h3 && r.h3->handshake_done.has_value(); }

// Handshake done, or ended without one.
bool settled(const ConnectionRecord& r) { return handshaken(r) || r.ending != Ending::open; }

struct Figures {
  long rss_base_kib = 0, rss_held_kib = 0, rss_trimmed_kib = 0;
  long long heap_base_b = 0, heap_held_b = 0;
  double cpu_open_s = 0, cpu_hold_s = 0, hold_s = 0;
  std::size_t held = 0;  // handshake done and still open when the hold began
};

// Waits until every connection has settled (or the opening's deadline), then measures memory
// and the CPU over the hold. Polls the records in place every 10 ms: bounded by `opened_by`.
awaitable<void> measure(const std::vector<ConnectionRecord>& records, std::size_t count,
                        Clock::time_point opened_by, double hold_s, double cpu_start,
                        Figures& figures) {
  Timer timer(co_await asio::this_coro::executor);
  while (Clock::now() < opened_by &&
         (records.size() < count || !std::ranges::all_of(records, settled))) {
    timer.expires_after(10ms);
    co_await timer.async_wait(as_values);
  }
  figures.rss_held_kib = vm_rss_kib();
  figures.heap_held_b = heap_in_use_b();
  ::malloc_trim(0);
  figures.rss_trimmed_kib = vm_rss_kib();
  figures.held =
      static_cast<std::size_t>(std::ranges::count_if(records, [](const ConnectionRecord& r) {
        return handshaken(r) && r.ending == Ending::open;
      }));
  const double cpu_before = cpu_seconds();
  figures.cpu_open_s = cpu_before - cpu_start;
  const auto hold_start = Clock::now();
  timer.expires_at(hold_start + seconds(hold_s));
  co_await timer.async_wait(as_values);
  figures.cpu_hold_s = cpu_seconds() - cpu_before;
  figures.hold_s = secs(Clock::now() - hold_start);
}

int run(const BenchOptions& o) {
  const auto colon = o.connect.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("--connect wants HOST:PORT");
  const tcp::endpoint target(asio::ip::make_address(o.connect.substr(0, colon)),
                             static_cast<unsigned short>(std::stoul(o.connect.substr(colon + 1))));
  require_loopback(target);
  raise_fd_limit();
  require_fd_room(o.count);

  const auto start = Clock::now() + 100ms;
  // Every handshake has started (count / rate) and had time to finish by then.
  const auto opening = seconds(static_cast<double>(o.count) / o.rate) + 5s;
  H3Options options;
  options.fleet.target = target;
  options.fleet.count = o.count;
  options.fleet.connect_timeout = opening;
  // From each connection's own first Initial: the last one opened is still held at the end
  // of the hold, which starts once all have settled.
  options.fleet.patience = opening + seconds(o.hold_s) + 2s;
  options.fleet.pacing = {.start = start, .per_second = o.rate};

  asio::io_context io(1);
  std::vector<ConnectionRecord> records;
  Figures figures{.rss_base_kib = vm_rss_kib(), .heap_base_b = heap_in_use_b()};
  const double cpu_start = cpu_seconds();
  spawn_h3_idle(io, options, records);
  asio::co_spawn(io, measure(records, o.count, start + opening, o.hold_s, cpu_start, figures),
                 asio::detached);
  io.run();  // every connection ends at its patience

  std::size_t done = 0, failed = 0;
  Clock::time_point first{Clock::time_point::max()}, last{};
  std::vector<double> handshake_ms;
  for (const auto& r : records) {
    if (r.connect_start != Clock::time_point{}) first = std::min(first, r.connect_start);
    if (!handshaken(r)) {
      ++failed;
      continue;
    }
    ++done;
    last = std::max(last, r.connect_start + *r.h3->handshake_done);
    handshake_ms.push_back(secs(*r.h3->handshake_done) * 1e3);
  }
  std::ranges::sort(handshake_ms);
  const double span = done ? secs(last - first) : 0;
  const auto pct = [&](double p) {
    return handshake_ms.empty() ? 0.0
                                : handshake_ms[static_cast<std::size_t>(
                                      p * static_cast<double>(handshake_ms.size() - 1))];
  };
  const auto per_held = [&](double bytes) {
    return figures.held ? bytes / static_cast<double>(figures.held) : 0.0;
  };
  const long delta = figures.rss_held_kib - figures.rss_base_kib;
  const double bytes_per_held = per_held(static_cast<double>(delta) * 1024.0);
  fmt::print("loiter-h3-bench: {} h3-idle connections to {}, {:.0f}/s asked, hold {:.1f} s\n",
             o.count, o.connect, o.rate, o.hold_s);
  fmt::print("handshakes completed   {} of {} ({} failed)\n", done, o.count, failed);
  fmt::print("handshakes/s           {:.1f} ({} in {:.3f} s, first Initial -> last done)\n",
             span > 0 ? static_cast<double>(done) / span : 0.0, done, span);
  fmt::print("handshake ms           p50 {:.2f}  p99 {:.2f}  max {:.2f}\n", pct(0.5), pct(0.99),
             pct(1.0));
  fmt::print("held                   {}\n", figures.held);
  fmt::print("client VmRSS KiB       before {}  all held {}  delta {}\n", figures.rss_base_kib,
             figures.rss_held_kib, delta);
  fmt::print("client bytes/held conn {:.0f}\n", bytes_per_held);
  fmt::print("budget {} B/held conn  {}\n", kBudgetB,
             figures.held == 0                ? "not measured (none held)"
             : bytes_per_held <= kBudgetB ? "within"
                                              : fmt::format("over, by {:.0f} B",
                                                            bytes_per_held - kBudgetB));
  // The heap's free pages handed back: what VmRSS keeps of the opening's holes (one thread,
  // one arena).
  fmt::print("client VmRSS B/held conn after malloc_trim {:.0f}\n",
             per_held(static_cast<double>(figures.rss_trimmed_kib - figures.rss_base_kib) * 1024.0));
  fmt::print("client heap B/held conn {:.0f}\n",
             per_held(static_cast<double>(figures.heap_held_b - figures.heap_base_b)));
  fmt::print("client CPU opening     {:.3f} s ({:.1f} us/handshake)\n", figures.cpu_open_s,
             done ? figures.cpu_open_s * 1e6 / static_cast<double>(done) : 0.0);
  fmt::print("client CPU holding     {:.3f} s over {:.2f} s ({:.2f} % of a core)\n",
             figures.cpu_hold_s, figures.hold_s,
             figures.hold_s > 0 ? 100.0 * figures.cpu_hold_s / figures.hold_s : 0.0);
  return done == o.count ? 0 : 1;
}

}  // namespace
}  // namespace loiter::clients

int main(int argc, char** argv) {
  loiter::clients::BenchOptions o;
  CLI::App app{"Holds N HTTP/3 connections against a loopback server and prints their cost"};
  app.add_option("--connect", o.connect, "HOST:PORT (UDP) of the server (loopback only)")
      ->required();
  app.add_option("--count", o.count, "connections to open and hold")->check(CLI::PositiveNumber);
  app.add_option("--hold", o.hold_s, "seconds to hold once all are open")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--rate", o.rate, "handshakes started per second (asked)")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  try {
    return loiter::clients::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loiter-h3-bench: %s\n", e.what());
    return 2;
  }
}
