// `loiter targets`: lists the bundled targets, or shows what one target declares.
#include "targets.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "finish.hpp"
#include "loiter/fixtures/target/target_file.hpp"
#include "loiter/reports/number_text.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

std::string seconds(const std::optional<fixtures::Duration>& d) {
  return d ? reports::plain_number(std::chrono::duration<double>(*d).count()) + " s" : "none";
}

// The QUIC listener's UDP port: declared, or the run's {port} (the TCP listener's number).
std::string udp_port(const fixtures::H3& h3) {
  return h3.port ? std::to_string(*h3.port) : std::string("{port} (the TCP listener's number)");
}

// "TLS (ALPN http/1.1, SNI none, handshake deadline none, header deadline from connect)";
// an [h3] target's: "QUIC on UDP 8443 (TLS 1.3 inside, ALPN h3, SNI localhost)".
std::string listener(const fixtures::Target& target) {
  if (target.h3) {
    const auto& h3 = *target.h3;
    return fmt::format("QUIC on UDP {} (TLS 1.3 inside, ALPN h3, SNI {})", udp_port(h3),
                       h3.server_name.empty() ? "none" : h3.server_name);
  }
  if (!target.tls) return "cleartext";
  const auto& tls = *target.tls;
  return fmt::format("TLS (ALPN {}, SNI {}, handshake deadline {}, header deadline from {})",
                     tls.alpn.empty() ? "none" : fmt::format("{}", fmt::join(tls.alpn, " ")),
                     tls.server_name.empty() ? "none" : tls.server_name, seconds(tls.handshake),
                     fixtures::to_string(tls.header_from));
}

// "cleartext", "TLS", "h2c" (HTTP/2 with prior knowledge) or "h2 TLS" (ALPN h2).
std::string protocol(const fixtures::Target& target) {
  if (target.h3) return "h3 QUIC";
  if (target.h2) return target.tls ? "h2 TLS" : "h2c";
  return target.tls ? "TLS" : "cleartext";
}

// "floods rapid-reset ping within 10000 frames, RSS 512.0 MiB, control p99 0.2 s" ([h2.flood]
// or [h3.flood]), or "no flood bound promised"; the p99 falls back to load_p99.
std::string floods(const std::optional<fixtures::FloodBound>& bound,
                   const fixtures::Target& target) {
  if (!bound) return "no flood bound promised";
  return fmt::format("floods {} within {} frames, RSS {}, control p99 {}",
                     fmt::join(bound->kinds, " "), bound->frames,
                     bound->rss ? fmt::format("{:.1f} MiB",
                                              static_cast<double>(*bound->rss) / 1048576.0)
                                : std::string("bound none"),
                     seconds(bound->p99 ? bound->p99 : target.promises.load_p99));
}

// "HTTP/2 over TLS (preface deadline none, GOAWAY on idle, floods rapid-reset ping within
// 10000 frames, RSS 512.0 MiB, control p99 0.2 s)"; the p99 falls back to load_p99.
std::string http2(const fixtures::Target& target) {
  const auto& h2 = *target.h2;
  auto text =
      fmt::format("{} (preface deadline {}, {})",
                  target.tls ? "HTTP/2 over TLS" : "h2c, HTTP/2 with prior knowledge",
                  seconds(h2.preface), h2.goaway_on_idle ? "GOAWAY on idle" : "no GOAWAY on idle");
  return text + ", " + floods(h2.flood, target);
}

// "HTTP/3 over QUIC (a stalled HEADERS: RESET_STREAM / STOP_SENDING; a stalled body: 408,
// no flood bound promised)".
std::string http3(const fixtures::Target& target) {
  const auto& h3 = *target.h3;
  const auto answer = [](bool respond_408) {
    return respond_408 ? "408" : "RESET_STREAM / STOP_SENDING";
  };
  return fmt::format("HTTP/3 over QUIC (a stalled HEADERS: {}; a stalled body: {}, {})",
                     answer(h3.header_408), answer(h3.body_408), floods(h3.flood, target));
}

// "[h3] handshake 2 s, idle 2 s (advertised 2 s), header 2 s, body 2 s, send 2 s": the
// deadlines an [h3] target's scenarios hold it to (the HTTP/1.1 ones never run on it).
std::string h3_deadlines(const fixtures::H3& h3) {
  return fmt::format("[h3] handshake {}, idle {} kept (advertised {}), header {}, body {}, send {}",
                     seconds(h3.handshake), seconds(h3.idle), seconds(h3.idle_advertised),
                     seconds(h3.header), seconds(h3.body), seconds(h3.send));
}

int list_bundled() {
  std::vector<fixtures::Target> targets;
  for (const auto& name : fixtures::bundled_target_names()) {
    targets.push_back(fixtures::bundled_target(name));
  }
  std::size_t width = 0;
  for (const auto& target : targets) width = std::max(width, target.name.size());
  for (const auto& target : targets) {
    fmt::print("{:<{}}  {:<9}  {}\n", target.name, width, protocol(target), target.description);
  }
  return kPassed;
}

int show(const fixtures::Target& target) {
  fmt::print("{} ({})\n", target.name, target.source);
  if (!target.description.empty()) fmt::print("  {}\n", target.description);
  fmt::print("  listener: {}\n", listener(target));
  fmt::print("  protocol: {}\n", target.h3   ? http3(target)
                                 : target.h2 ? http2(target)
                                             : std::string("HTTP/1.1"));
  if (target.h3) {
    fmt::print("  deadlines: {}\n", h3_deadlines(*target.h3));
  } else {
    fmt::print("  deadlines: header {}, body {}, idle {}\n", seconds(target.deadlines.header),
               seconds(target.deadlines.body), seconds(target.deadlines.idle));
  }
  if (fixtures::connect_only(target)) {
    fmt::print(
        "  connect-only: no command, loiter cannot start this server; run it yourself "
        "and give loiter check --connect HOST:PORT (and --pid P)\n");
    return kPassed;
  }
  fmt::print("  readiness: GET {}{} within {}\n", target.readiness.path,
             target.h3 ? " over HTTP/3" : "", seconds(target.readiness.timeout));
  return kPassed;
}

}  // namespace

void add_targets_options(CLI::App& command, TargetsOptions& options) {
  command.add_option("target", options.target,
                     "a bundled target or a target file (TOML): show what it declares, or why "
                     "it is refused; without it, list the bundled targets");
}

int run_targets(const TargetsOptions& options) {
  if (options.target.empty()) return list_bundled();
  return show(refusing([&] { return suites::resolve_target(options.target); }));
}

}  // namespace loiter::cli
