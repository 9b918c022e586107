// loiter-load: sends one request at a constant rate on an absolute timeline (or in a closed
// loop with --rate 0) over a pool of keep-alive connections to a loopback server, and prints
// what it sent and saw: requested, dispatched, succeeded, non-2xx and errors by kind,
// latency percentiles from the intended and from the actual send time, the most sends in
// one millisecond, and the client's own CPU per request (getrusage). It stops by itself.
//
//   loiter-load --connect 127.0.0.1:8080 --rate 5000 --duration 10
//   loiter-load --connect 127.0.0.1:8080 --rate 0 --connections 64 --duration 5 --json
//   loiter-load --connect 127.0.0.1:8080 --rate 15000 --fresh 0.02 --abort 0.01 --replace-every
//   1000
//   loiter-load --connect 127.0.0.1:8080 --h2 --rate 20000 --connections 4 --duration 10
//   loiter-load --connect 127.0.0.1:8443 --h3 --rate 5000 --connections 8 --duration 10
#include <fmt/format.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <string>

#include "loiter/clients/load/load.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "process_cpu.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;

struct CliOptions {
  std::string connect;
  double rate = 5000.0;
  double duration_s = 10.0;
  std::size_t connections = 32;
  std::string path = "/health";
  std::string method = "GET";
  std::string body;
  double timeout_s = 5.0;
  double tick_ms = 1.0;
  bool json = false;
  bool per_second = false;
  bool h2 = false;
  bool h3 = false;
  std::string server_name = "localhost";
  Churn churn;
};

struct Figures {
  double cpu_us_per_request = 0;
  double requests_per_s = 0;  // whole responses per second of the run
  double elapsed_s = 0;
  long max_rss_kib = 0;  // the client's peak RSS (getrusage)
};

using bench::cpu_seconds;

// The user's Ctrl-C: the schedule ends at the next wake and what was sent is still answered
// and printed (a second Ctrl-C ends the process at once).
volatile std::sig_atomic_t interrupted = 0;

void on_interrupt(int) { interrupted = 1; }

void stop_on_ctrl_c() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

double us(Duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

tcp::endpoint parse_endpoint(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("--connect wants HOST:PORT");
  auto host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  return {asio::ip::make_address(host),
          static_cast<unsigned short>(std::stoul(text.substr(colon + 1)))};
}

std::string latency_json(const LatencyHistogram& h) {
  return fmt::format(
      R"({{"count": {}, "p50_us": {:.1f}, "p90_us": {:.1f}, "p99_us": {:.1f}, "p999_us": {:.1f}, "max_us": {:.1f}, "mean_us": {:.1f}}})",
      h.count(), us(h.percentile(50)), us(h.percentile(90)), us(h.percentile(99)),
      us(h.percentile(99.9)), us(h.max()), us(h.mean()));
}

template <typename Map>
std::string counts_json(const Map& counts) {
  std::string text = "{";
  for (const auto& [key, count] : counts) {
    text += fmt::format("{}\"{}\": {}", text.size() > 1 ? ", " : "", key, count);
  }
  return text + "}";
}

void print_json(const LoadOptions& o, const LoadResult& r, const Figures& f) {
  fmt::print(
      "{{\"rate\": {}, \"duration_s\": {}, \"connections\": {}, \"requested\": {}, "
      "\"dispatched\": {}, \"succeeded\": {}, \"non_2xx\": {}, \"errors\": {}, "
      "\"from_intended\": {}, \"from_sent\": {}, \"max_send_lag_us\": {:.1f}, "
      "\"max_sends_in_one_ms\": {}, \"connections_opened\": {}, \"elapsed_s\": {:.3f}, "
      "\"requests_per_s\": {:.1f}, \"cpu_us_per_request\": {:.2f}, \"keeping_up\": {}, "
      "\"aborted\": {}, \"fresh_closed\": {}, \"server_closed\": {}, \"close_kept\": {}, "
      "\"replaced\": {}, "
      "\"max_rss_kib\": {}, \"stopped_early\": {}, \"h2\": {}, \"h3\": {}, \"goaways\": {}, "
      "\"closes\": {}}}\n",
      o.rate, std::chrono::duration<double>(o.duration).count(), o.connections, r.requested,
      r.dispatched, r.succeeded, counts_json(r.non_2xx), counts_json(r.errors),
      latency_json(r.from_intended), latency_json(r.from_sent), us(r.max_send_lag),
      r.max_sends_in_one_ms, r.connections_opened, f.elapsed_s, f.requests_per_s,
      f.cpu_us_per_request, r.keeping_up() ? "true" : "false", r.aborted, r.fresh_closed,
      r.server_closed, r.close_kept, r.replaced, f.max_rss_kib, r.stopped_early,
      o.protocol == clients::LoadProtocol::h2, o.protocol == clients::LoadProtocol::h3,
      counts_json(r.goaways), counts_json(r.closes));
}

void print_latency(std::string_view name, const LatencyHistogram& h) {
  fmt::print("{:<14}p50 {:.3f}  p90 {:.3f}  p99 {:.3f}  p99.9 {:.3f}  max {:.3f} ms\n", name,
             us(h.percentile(50)) / 1e3, us(h.percentile(90)) / 1e3, us(h.percentile(99)) / 1e3,
             us(h.percentile(99.9)) / 1e3, us(h.max()) / 1e3);
}

void print_text(const LoadOptions& o, const LoadResult& r, const Figures& f, bool per_second) {
  fmt::print("target        {} {}{} ({} connections, {})\n", o.method,
             o.server.address().to_string(), fmt::format(":{}{}", o.server.port(), o.path),
             o.connections,
             o.rate > 0 ? fmt::format("{} req/s open loop", o.rate) : std::string("closed loop"));
  fmt::print("requested     {}{}\n", r.requested,
             r.stopped_early ? fmt::format("  (stopped early: the first {:.3f} s of the schedule)",
                                           std::chrono::duration<double>(r.scheduled).count())
                             : "");
  fmt::print("dispatched    {}{}\n", r.dispatched, r.keeping_up() ? "" : "  (NOT all requested)");
  fmt::print("succeeded     {}\n", r.succeeded);
  fmt::print("non-2xx       {}\n", counts_json(r.non_2xx));
  fmt::print("errors        {}\n", counts_json(r.errors));
  print_latency("from intended", r.from_intended);
  print_latency("from sent", r.from_sent);
  fmt::print("send lag      max {:.3f} ms; max sends in one ms {}\n", us(r.max_send_lag) / 1e3,
             r.max_sends_in_one_ms);
  const bool h2 = o.protocol == clients::LoadProtocol::h2;
  const bool h3 = o.protocol == clients::LoadProtocol::h3;
  fmt::print("connections   {} opened (reconnects included){}\n", r.connections_opened,
             h2 ? ", HTTP/2" : h3 ? ", HTTP/3 over QUIC" : "");
  if (h2 || h3) fmt::print("goaways       {}\n", counts_json(r.goaways));
  if (h3) {
    fmt::print("closes        {}\n", counts_json(r.closes));
    fmt::print("datagrams     {} sent ({} B), {} received ({} B)\n", r.datagrams.sent,
               r.datagrams.bytes_sent, r.datagrams.received, r.datagrams.bytes_received);
  }
  if (o.churn.any()) {
    fmt::print(
        "churn         {} aborted, {} fresh closed, {} server closed, {} kept open after "
        "\"Connection: close\", {} replaced\n",
        r.aborted, r.fresh_closed, r.server_closed, r.close_kept, r.replaced);
  }
  fmt::print("throughput    {:.0f} responses/s over {:.3f} s\n", f.requests_per_s, f.elapsed_s);
  fmt::print("client CPU    {:.2f} us per request; peak RSS {} KiB\n", f.cpu_us_per_request,
             f.max_rss_kib);
  if (!per_second) return;
  fmt::print("\nsecond  requested dispatched succeeded failed   p50 ms   p99 ms   max ms\n");
  for (std::size_t k = 0; k < r.seconds.size(); ++k) {
    const auto& s = r.seconds[k];
    fmt::print("{:>6} {:>10} {:>10} {:>9} {:>6} {:>8.3f} {:>8.3f} {:>8.3f}\n", k, s.requested,
               s.dispatched, s.succeeded, s.failed, us(s.p50) / 1e3, us(s.p99) / 1e3,
               us(s.max) / 1e3);
  }
}

int run(const CliOptions& cli) {
  const LoadOptions options{
      .server = parse_endpoint(cli.connect),
      .rate = cli.rate,
      .duration =
          std::chrono::duration_cast<Duration>(std::chrono::duration<double>(cli.duration_s)),
      .connections = cli.connections,
      .method = cli.method,
      .path = cli.path,
      .body = cli.body,
      .request_timeout =
          std::chrono::duration_cast<Duration>(std::chrono::duration<double>(cli.timeout_s)),
      .start = Clock::now() + 100ms,
      .tick = std::chrono::duration_cast<Duration>(
          std::chrono::duration<double, std::milli>(cli.tick_ms)),
      .churn = cli.churn,
      .stop_early = [] { return interrupted != 0; },
      .protocol = cli.h3   ? clients::LoadProtocol::h3
                  : cli.h2 ? clients::LoadProtocol::h2
                           : clients::LoadProtocol::http1,
      .server_name = cli.server_name};
  require_loopback(options.server);
  require_fd_room(options.connections);
  // Only this thread touches the context (no posts from elsewhere, no signal sets): it may
  // run without the scheduler's and the reactor's locks.
  asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);
  LoadResult result;
  stop_on_ctrl_c();
  spawn_load(io, options, result);
  const double cpu_before = cpu_seconds();
  io.run();  // the generator stops by itself
  const double cpu = cpu_seconds() - cpu_before;
  Figures figures;
  figures.elapsed_s = std::chrono::duration<double>(result.ended - result.started).count();
  const auto answered = result.from_sent.count();
  figures.requests_per_s =
      figures.elapsed_s > 0 ? static_cast<double>(answered) / figures.elapsed_s : 0;
  figures.cpu_us_per_request =
      result.dispatched ? cpu * 1e6 / static_cast<double>(result.dispatched) : 0;
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) == 0) figures.max_rss_kib = usage.ru_maxrss;
  if (cli.json) {
    print_json(options, result, figures);
  } else {
    print_text(options, result, figures, cli.per_second);
  }
  return interrupted ? 130 : 0;  // 128 + SIGINT, as a shell reports it
}

}  // namespace
}  // namespace loiter::clients

int main(int argc, char** argv) {
  loiter::clients::CliOptions o;
  CLI::App app{
      "Open-loop HTTP/1.1 (or, with --h2, HTTP/2; with --h3, HTTP/3 over QUIC) load on keep-alive "
      "connections to a loopback "
      "server; latency from "
      "each request's intended send time (coordinated-omission-free) and from its actual send"};
  app.footer(
      "Examples:\n"
      "  loiter-load --connect 127.0.0.1:8080 --rate 5000 --duration 10\n"
      "  loiter-load --connect 127.0.0.1:8080 --rate 0 --connections 64 --duration 5 --json\n"
      "  loiter-load --connect 127.0.0.1:8080 --rate 20000 --tick 0 --per-second\n"
      "  loiter-load --connect [::1]:8080 --method POST --path /echo --body '{\"a\":1}'\n"
      "  loiter-load --connect 127.0.0.1:8080 --h2 --rate 20000 --connections 4 --duration 10\n"
      "  loiter-load --connect 127.0.0.1:8443 --h3 --rate 5000 --connections 8 --duration 10\n"
      "Request i is due at start + i/rate; requested = floor(rate x duration). Requests still\n"
      "unsent 1 s after the schedule ends are not sent: dispatched < requested says so.\n"
      "Ctrl-C ends the schedule early: what was sent is answered and printed (exit 130).");
  app.add_option("--connect", o.connect, "HOST:PORT of the server (loopback only)")->required();
  app.add_option("--rate", o.rate, "requests per second; 0 = closed loop")->capture_default_str();
  app.add_option("--duration", o.duration_s, "seconds of schedule")->capture_default_str();
  app.add_option("--connections", o.connections, "keep-alive pool size")->capture_default_str();
  app.add_option("--path", o.path, "request target")->capture_default_str();
  app.add_option("--method", o.method, "request method")->capture_default_str();
  app.add_option("--body", o.body, "request body (sent with Content-Length)");
  app.add_option("--timeout", o.timeout_s, "seconds for a whole response")->capture_default_str();
  app.add_option("--tick", o.tick_ms,
                 "pacing resolution in ms: one wake per tick sends all that is due then (never "
                 "early, up to a tick late); 0 wakes at each request's own due time (dearer)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  app.add_flag("--h2", o.h2,
               "HTTP/2 (h2c, prior knowledge): each request a stream, multiplexed on the "
               "connections within the server's MAX_CONCURRENT_STREAMS");
  app.add_flag("--h3", o.h3,
               "HTTP/3 over QUIC to the server's UDP port (TLS 1.3 inside, ALPN h3, no "
               "certificate check): each request a stream within the server's MAX_STREAMS")
      ->excludes("--h2");
  app.add_option("--server-name", o.server_name, "the SNI of --h3's TLS (empty: none)")
      ->capture_default_str();
  app.add_flag("--json", o.json, "print one JSON object instead of text");
  app.add_flag("--per-second", o.per_second, "also print each second of the schedule (text)");
  app.add_option("--fresh", o.churn.fresh, "share of requests on a fresh connection, closed after");
  app.add_option("--server-close", o.churn.server_close,
                 "share of requests with \"Connection: close\"");
  app.add_option("--abort", o.churn.abort, "share of requests reset once their answer begins");
  app.add_option("--abort-path", o.churn.abort_path,
                 "what aborted requests ask for (default --path)");
  app.add_option("--replace-every", o.churn.replace_every,
                 "close a kept-alive connection after this many requests (0: never)");
  CLI11_PARSE(app, argc, argv);
  try {
    return loiter::clients::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loiter-load: %s\n", e.what());
    return 1;
  }
}
