// Counting, handing over and printing loiter-hold-bench's figures.
#include "hold_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <tuple>

namespace loiter::clients::bench {

namespace {

long long ns(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

bool answered(const ConnectionRecord& r, std::size_t i) {
  return r.responses.size() > i && r.responses[i].complete && r.responses[i].status == 200;
}

double per_connection_b(long from_kib, long to_kib, std::size_t n) {
  return n ? static_cast<double>(to_kib - from_kib) * 1024.0 / static_cast<double>(n) : 0.0;
}

double open_seconds(const Figures& f) {
  return static_cast<double>(f.last_connected_ns - f.first_start_ns) / 1e9;
}

void print_row(const std::string& name, const Figures& f, bool recheck) {
  const auto opt = [&](std::size_t n) { return recheck ? std::to_string(n) : std::string("-"); };
  fmt::print("{:<8} {:>7} {:>9} {:>8} {:>10} {:>7} {:>6} {:>8.0f} {:>8} {:>6.2f} {:>7.3f}\n", name,
             f.count, f.connected, opt(f.first_ok), opt(f.recheck_ok), f.held, f.failed(),
             per_connection_b(f.rss_base_kib, f.rss_held_kib, f.connected),
             recheck ? fmt::format("{:.0f}",
                                   per_connection_b(f.rss_base_kib, f.rss_recheck_kib, f.connected))
                     : std::string("-"),
             f.hold_s > 0 ? 100.0 * f.cpu_hold_s / f.hold_s : 0.0, open_seconds(f));
}

void add(std::map<std::string, std::size_t>& to, const std::map<std::string, std::size_t>& from) {
  for (const auto& [text, n] : from) to[text] += n;
}

std::string reasons(const std::map<std::string, std::size_t>& errors) {
  std::string text;
  for (const auto& [error, n] : errors) text += fmt::format(" \"{}\" x{}", error, n);
  return text;
}

}  // namespace

std::size_t Figures::failed() const { return count - held; }

void count_records(const std::vector<ConnectionRecord>& records, bool recheck, Figures& f) {
  f.first_start_ns = records.empty() ? 0 : ns(records.front().connect_start);
  for (const auto& r : records) {
    if (r.ending == Ending::connect_failed) {
      ++f.connect_errors[r.error];
      continue;
    }
    ++f.connected;
    f.first_start_ns = std::min(f.first_start_ns, ns(r.connect_start));
    // Over TLS, opened = the handshake done (a handshake that did not complete is no hold).
    const bool handshaken = !r.tls || r.tls->handshake_done.has_value();
    const auto opened =
        r.tls && r.tls->handshake_done ? r.connected() + *r.tls->handshake_done : r.connected();
    if (handshaken) f.last_connected_ns = std::max(f.last_connected_ns, ns(opened));
    f.first_ok += answered(r, 0);
    f.recheck_ok += answered(r, 1);
    switch (r.ending) {
      case Ending::close:
        ++f.server_close;
        break;
      case Ending::reset:
        ++f.reset_errors[r.error];
        ++f.reset;
        break;
      case Ending::open:  // silent: held to the end; held-recheck: a response never came
        if (recheck) ++f.timeout;
        f.held += !recheck && handshaken;
        break;
      case Ending::client_close:  // held-recheck: released by the client, as planned
        f.held += recheck && answered(r, 1);
        break;
      default:
        break;
    }
  }
}

// Every plain number of Figures, in the order a worker writes them: one list for to_text()
// and from_text(), so neither can leave a field out.
constexpr auto kNumbers =
    std::make_tuple(&Figures::count, &Figures::connected, &Figures::first_ok, &Figures::recheck_ok,
                    &Figures::held, &Figures::server_close, &Figures::reset, &Figures::timeout,
                    &Figures::first_start_ns, &Figures::last_connected_ns, &Figures::rss_base_kib,
                    &Figures::rss_held_kib, &Figures::rss_recheck_kib, &Figures::heap_base_b,
                    &Figures::heap_held_b, &Figures::cpu_hold_s, &Figures::hold_s);

std::string to_text(const Figures& f) {
  std::string text = "figures";
  std::apply([&](auto... field) { ((text += fmt::format(" {}", f.*field)), ...); }, kNumbers);
  text += '\n';
  for (const auto& [error, n] : f.connect_errors) text += fmt::format("connect {} {}\n", n, error);
  for (const auto& [error, n] : f.reset_errors) text += fmt::format("reset {} {}\n", n, error);
  return text;
}

bool from_text(const std::string& text, Figures& f) {
  std::istringstream lines(text);
  std::string line, word;
  bool seen = false;
  while (std::getline(lines, line)) {  // bounded by the worker's output
    std::istringstream in(line);
    in >> word;
    if (word == "figures") {
      std::apply([&](auto... field) { ((in >> f.*field), ...); }, kNumbers);
      seen = !in.fail();
    } else if (word == "connect" || word == "reset") {
      std::size_t n = 0;
      in >> n >> std::ws;
      std::getline(in, line);
      (word == "connect" ? f.connect_errors : f.reset_errors)[line] += n;
    }
  }
  return seen;
}

Figures combine(const std::vector<Figures>& parts) {
  Figures sum{.first_start_ns = parts.front().first_start_ns};
  for (const auto& f : parts) {
    sum.count += f.count;
    sum.connected += f.connected;
    sum.first_ok += f.first_ok;
    sum.recheck_ok += f.recheck_ok;
    sum.held += f.held;
    sum.server_close += f.server_close;
    sum.reset += f.reset;
    sum.timeout += f.timeout;
    add(sum.connect_errors, f.connect_errors);
    add(sum.reset_errors, f.reset_errors);
    sum.first_start_ns = std::min(sum.first_start_ns, f.first_start_ns);
    sum.last_connected_ns = std::max(sum.last_connected_ns, f.last_connected_ns);
    sum.rss_base_kib += f.rss_base_kib;
    sum.rss_held_kib += f.rss_held_kib;
    sum.rss_recheck_kib += f.rss_recheck_kib;
    sum.heap_base_b += f.heap_base_b;
    sum.heap_held_b += f.heap_held_b;
    sum.cpu_hold_s += f.cpu_hold_s;
    sum.hold_s = std::max(sum.hold_s, f.hold_s);
  }
  return sum;
}

void print_table(const std::vector<Figures>& parts, bool recheck) {
  fmt::print("{:<8} {:>7} {:>9} {:>8} {:>10} {:>7} {:>6} {:>8} {:>8} {:>6} {:>7}\n", "process",
             "asked", "connected", "first-ok", "recheck-ok", "held", "failed", "B/conn",
             "B@recheck", "cpu%", "open-s");
  if (parts.size() > 1) {
    for (std::size_t i = 0; i < parts.size(); ++i) print_row(std::to_string(i), parts[i], recheck);
  }
  const Figures total = combine(parts);
  print_row("total", total, recheck);
  const double open_s = open_seconds(total);
  fmt::print("open rate     {:.0f} conn/s ({} connected in {:.3f} s)\n",
             open_s > 0 ? static_cast<double>(total.connected) / open_s : 0.0, total.connected,
             open_s);
  fmt::print("client RSS    VmRSS {} -> {} KiB held{}, records kept\n", total.rss_base_kib,
             total.rss_held_kib,
             recheck ? fmt::format(", {} KiB after the re-check", total.rss_recheck_kib) : "");
  fmt::print(
      "client heap   {:.0f} B per held connection in use (mallinfo2; VmRSS also counts the "
      "opening's freed holes)\n",
      total.connected ? static_cast<double>(total.heap_held_b - total.heap_base_b) /
                            static_cast<double>(total.connected)
                      : 0.0);
  fmt::print("client CPU    {:.3f} s over {:.1f} s of holding (summed over processes)\n",
             total.cpu_hold_s, total.hold_s);
  fmt::print("failures      connect {}{} | server close {} | reset {}{} | timeout {}\n",
             total.count - total.connected, reasons(total.connect_errors), total.server_close,
             total.reset, reasons(total.reset_errors), total.timeout);
}

}  // namespace loiter::clients::bench
