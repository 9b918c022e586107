// `loiter targets`: lists the bundled targets, or shows what one target declares.
#include "targets.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>

#include "finish.hpp"
#include "loiter/fixtures/target/target_file.hpp"
#include "loiter/suites/runner/target_choice.hpp"

namespace loiter::cli {

namespace {

std::string seconds(const std::optional<fixtures::Duration>& d) {
  return d ? fmt::format("{:g} s", std::chrono::duration<double>(*d).count()) : "none";
}

// "TLS (ALPN http/1.1, SNI none, handshake deadline none, header deadline from connect)".
std::string listener(const fixtures::Target& target) {
  if (!target.tls) return "cleartext";
  const auto& tls = *target.tls;
  return fmt::format("TLS (ALPN {}, SNI {}, handshake deadline {}, header deadline from {})",
                     tls.alpn.empty() ? "none" : fmt::format("{}", fmt::join(tls.alpn, " ")),
                     tls.server_name.empty() ? "none" : tls.server_name, seconds(tls.handshake),
                     fixtures::to_string(tls.header_from));
}

int list_bundled() {
  std::vector<fixtures::Target> targets;
  for (const auto& name : fixtures::bundled_target_names()) {
    targets.push_back(fixtures::bundled_target(name));
  }
  std::size_t width = 0;
  for (const auto& target : targets) width = std::max(width, target.name.size());
  for (const auto& target : targets) {
    fmt::print("{:<{}}  {:<9}  {}\n", target.name, width, target.tls ? "TLS" : "cleartext",
               target.description);
  }
  return kPassed;
}

int show(const fixtures::Target& target) {
  fmt::print("{} ({})\n", target.name, target.source);
  if (!target.description.empty()) fmt::print("  {}\n", target.description);
  fmt::print("  listener: {}\n", listener(target));
  fmt::print("  deadlines: header {}, body {}, idle {}\n", seconds(target.deadlines.header),
             seconds(target.deadlines.body), seconds(target.deadlines.idle));
  fmt::print("  readiness: GET {} within {}\n", target.readiness.path,
             seconds(target.readiness.timeout));
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
  try {
    return show(suites::resolve_target(options.target));
  } catch (const std::exception& e) {
    std::cerr << "loiter: " << e.what() << "\n";
    return kUsage;
  }
}

}  // namespace loiter::cli
